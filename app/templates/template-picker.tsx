import { Form, useLocation } from "@remix-run/react";
import { FileText } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button, Select } from "~/components/ui";

/** What the picker needs of a template (PublicTemplate fits). */
export type PickableTemplate = {
  id: number;
  name: string;
  type: "sms" | "email";
  subject: string | null;
  content: string;
};

import { TEMPLATE_PARAM } from "./template-schema";

export { TEMPLATE_PARAM };

// Sets a form control's value so React (controlled or not) sees the change as if typed.
function fill(id: string | undefined, value: string) {
  if (!id) return;
  const el = document.getElementById(id);
  if (!(el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement)) return;
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, "value")?.set?.call(el, value);
  el.dispatchEvent(new Event("input", { bubbles: true }));
}

/**
 * A template picker for any compose form. Without JS it is a GET form: `?template=<id>` (other query parameters
 * kept), and the loader pre-fills the target from it (see `pickTemplate`). With JS, choosing a template fills the
 * target textarea (`targetId`) and subject input (`subjectTargetId`) at once, or calls `onPick`. It must sit outside
 * the compose form (forms do not nest).
 */
export function TemplatePicker({
  templates,
  selectedId,
  targetId,
  subjectTargetId,
  onPick,
  type,
  label = "Use a template",
  preserve,
}: {
  templates: PickableTemplate[];
  selectedId?: number | null;
  targetId?: string;
  subjectTargetId?: string;
  onPick?: (t: PickableTemplate) => void;
  /** Show only templates of this type. */
  type?: "sms" | "email";
  label?: string;
  /** Query parameters to keep (default: the current ones, minus `template`). */
  preserve?: Record<string, string>;
}) {
  const id = useId();
  const location = useLocation();
  const [value, setValue] = useState(selectedId ? String(selectedId) : "");
  const shown = type ? templates.filter((t) => t.type === type) : templates;
  const select = useRef<HTMLSelectElement>(null);
  const apply = (picked: string) => {
    setValue(picked);
    const t = shown.find((x) => String(x.id) === picked);
    if (!t) return;
    if (onPick) onPick(t);
    fill(targetId, t.content);
    if (t.type === "email") fill(subjectTargetId, t.subject ?? "");
  };
  // A template chosen before the page hydrated (a slow phone) fired no handler: apply what the select shows now.
  useEffect(() => {
    const shownNow = select.current?.value ?? "";
    if (shownNow && shownNow !== value) apply(shownNow);
    // Once, on hydration: later changes go through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const keep =
    preserve ?? Object.fromEntries([...new URLSearchParams(location.search)].filter(([k]) => k !== TEMPLATE_PARAM));
  return (
    <Form
      method="get"
      preventScrollReset
      replace
      className="flex flex-wrap items-end gap-2"
      data-testid="template-picker"
    >
      {Object.entries(keep).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <div className="min-w-48 flex-1">
        <label htmlFor={id} className="mb-1 block text-sm font-medium text-fg">
          {label}
        </label>
        <Select id={id} name={TEMPLATE_PARAM} ref={select} value={value} onChange={(e) => apply(e.target.value)}>
          <option value="">{shown.length ? "Choose a template…" : "No templates yet"}</option>
          {shown.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </Select>
      </div>
      {/* No JS: this button loads the page with ?template=<id>; with JS the select fills the form by itself. */}
      <Button type="submit" variant="outline" icon={FileText} data-testid="template-apply">
        Use template
      </Button>
    </Form>
  );
}
