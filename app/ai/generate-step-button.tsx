/**
 * "Generate with AI" for the campaign step editor (SPEC §2): the options introduction, follow-up, value and urgency;
 * each one only triggers generation.
 * - no JS: its own POST form to /ai/generate-step, which redirects to `returnTo` with the draft in the query
 *   (`aiContent`, `aiSubject`, `aiName`, `aiOption`, or `aiError`); the editor uses them as its fields' default
 *   values (`aiName` only for an empty name).
 * - JS: POST /api/ai/generate-step-content and the draft is written into the editor's fields (by id; the name
 *   only when it is empty), firing
 *   `input` events so controlled fields and conform see the change. A failure toasts "Error generating AI content".
 * It renders a <form>, so mount it OUTSIDE the editor's own <form> (forms cannot nest).
 */
import { Sparkles } from "lucide-react";
import { useRef, useState, type MouseEvent } from "react";
import { Alert, Button, HiddenFields } from "~/components/ui";
import { useToast } from "~/components/toaster";
import { GENERATE_OPTIONS } from "./step-content-schema";

export const AI_QUERY = {
  content: "aiContent",
  subject: "aiSubject",
  name: "aiName",
  option: "aiOption",
  error: "aiError",
} as const;

const LABEL: Record<(typeof GENERATE_OPTIONS)[number], string> = {
  introduction: "Introduction",
  "follow-up": "Follow-up",
  value: "Value",
  urgency: "Urgency",
};

export type GenerateStepButtonProps = {
  campaignId: number;
  campaignName: string;
  campaignDescription?: string | null;
  stepNumber: number;
  messageType: "sms" | "email";
  /** Earlier steps (for context); without JS the server reads them from the campaign. */
  previousSteps?: Array<{ stepNumber: number; messageType: "sms" | "email"; content: string; subject?: string | null }>;
  targetAudience?: string;
  campaignGoal?: string;
  /** id of the content <textarea> to fill. */
  contentFieldId: string;
  /** id of the subject <input> (email steps). */
  subjectFieldId?: string;
  /** id of the step name <input>: filled only when it is empty. */
  nameFieldId?: string;
  /** Same-origin path the no-JS form comes back to (the editor's own URL, e.g. `/campaigns/7/steps/new`). */
  returnTo: string;
  /** Rendered without JS after a failed generation (pass the `aiError` query value). */
  error?: string | null;
};

/** Sets a field's value the way typing would, so React-controlled inputs and conform notice. */
function fillField(id: string | undefined, value: string | null | undefined) {
  if (!id || value == null) return;
  const el = document.getElementById(id) as HTMLInputElement | HTMLTextAreaElement | null;
  if (!el) return;
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, "value")?.set?.call(el, value);
  el.dispatchEvent(new Event("input", { bubbles: true }));
  el.dispatchEvent(new Event("change", { bubbles: true }));
}

export function GenerateStepButton(props: GenerateStepButtonProps) {
  const toast = useToast();
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(props.error ?? null);
  // Each click asks for a different variant of the same option.
  const clicks = useRef(0);

  async function generate(e: MouseEvent<HTMLButtonElement>, option: string) {
    e.preventDefault();
    setPending(option);
    setError(null);
    try {
      const res = await fetch("/api/ai/generate-step-content", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          campaignName: props.campaignName,
          campaignDescription: props.campaignDescription ?? "",
          stepNumber: props.stepNumber,
          messageType: props.messageType,
          previousSteps: props.previousSteps ?? [],
          targetAudience: props.targetAudience ?? "",
          campaignGoal: props.campaignGoal ?? "",
          option,
          seed: (clicks.current += 1),
        }),
      });
      const body = (await res.json().catch(() => ({}))) as {
        content?: string;
        subject?: string | null;
        name?: string;
        message?: string;
      };
      if (!res.ok || !body.content) throw new Error(body.message ?? `The server answered ${res.status}`);
      fillField(props.contentFieldId, body.content);
      const nameField = props.nameFieldId
        ? (document.getElementById(props.nameFieldId) as HTMLInputElement | null)
        : null;
      if (nameField && !nameField.value.trim()) fillField(props.nameFieldId, body.name);
      if (props.messageType === "email") fillField(props.subjectFieldId, body.subject ?? "");
    } catch (err) {
      const message = err instanceof Error ? err.message : "Please try again.";
      setError(message);
      toast({ title: "Error generating AI content", description: message, variant: "destructive" });
    } finally {
      setPending(null);
    }
  }

  return (
    <form
      method="post"
      action="/ai/generate-step"
      className="space-y-2 rounded-md border border-border bg-muted p-3"
      data-testid="generate-with-ai"
    >
      <HiddenFields
        fields={{
          campaignId: props.campaignId,
          stepNumber: props.stepNumber,
          messageType: props.messageType,
          returnTo: props.returnTo,
        }}
      />
      <p className="flex items-center gap-2 text-sm font-medium text-fg">
        <Sparkles className="size-4 text-primary-text" aria-hidden /> Generate with AI
      </p>
      <div className="flex flex-wrap gap-2">
        {GENERATE_OPTIONS.map((o) => (
          <Button
            key={o}
            type="submit"
            name="option"
            value={o}
            size="sm"
            variant="outline"
            disabled={pending !== null}
            onClick={(e) => generate(e, o)}
          >
            {pending === o ? "Generating..." : LABEL[o]}
          </Button>
        ))}
      </div>
      {error ? (
        <Alert tone="danger" data-testid="generate-ai-error">
          <strong>Error generating AI content</strong>: {error}
        </Alert>
      ) : null}
    </form>
  );
}
