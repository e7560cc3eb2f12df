import { Form, useNavigation } from "@remix-run/react";
import { Button, Card, Field } from "~/components/ui";

export type StageOption = { key: string; label: string };

/**
 * Where the sale stands and the form that moves it (decision 053). Posts to /contacts/:id/stage and comes back to
 * `back`; a plain form, so it works without JavaScript.
 */
export function StageCard({
  contactId,
  stage,
  stages,
  back,
}: {
  contactId: number;
  stage: string;
  stages: readonly StageOption[];
  back: string;
}) {
  const pending = useNavigation().state === "submitting";
  const current = stages.find((s) => s.key === stage)?.label ?? stage;
  return (
    <Card title="Stage">
      <p className="text-sm" data-testid="contact-stage">
        <span className="font-medium">{current}</span>
      </p>
      <Form method="post" action={`/contacts/${contactId}/stage`} className="mt-3 space-y-3">
        <input type="hidden" name="back" value={back} />
        <Field
          as="select"
          label="Move to"
          id={`stage-${contactId}`}
          name="stage"
          defaultValue={stage}
          options={stages.map((s) => ({ value: s.key, label: s.label }))}
        />
        <Button type="submit" variant="secondary" disabled={pending}>
          Save stage
        </Button>
      </Form>
    </Card>
  );
}
