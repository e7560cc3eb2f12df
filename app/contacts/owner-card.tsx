import { Form, useNavigation } from "@remix-run/react";
import { Button, Card, Field } from "~/components/ui";
import type { OwnerPicker } from "./load-owner-picker.server";

/** An owner select's options: "No owner", then the choices, the signed-in user marked "(me)". */
export function ownerOptions(choices: readonly { id: number; name: string }[], me: number) {
  return [
    { value: "", label: "No owner" },
    ...choices.map((u) => ({ value: String(u.id), label: u.id === me ? `${u.name} (me)` : u.name })),
  ];
}

/**
 * A contact's owner and the form that sets, reassigns or clears it with a note for the activity log (decision 044).
 * Posts to /contacts/:id/owner and comes back to `back`; a plain form, so it works without JavaScript.
 */
export function OwnerCard({ contactId, picker, back }: { contactId: number; picker: OwnerPicker; back: string }) {
  const pending = useNavigation().state === "submitting";
  return (
    <Card title="Owner">
      <p className="text-sm" data-testid="contact-owner">
        {picker.owner ? <span className="font-medium">{picker.owner.name}</span> : <span>No owner</span>}
      </p>
      {picker.mayChange ? (
        <Form method="post" action={`/contacts/${contactId}/owner`} className="mt-3 space-y-3">
          <input type="hidden" name="back" value={back} />
          <Field
            as="select"
            label={picker.owner ? "Reassign to" : "Assign to"}
            id={`owner-${contactId}`}
            name="ownerUserId"
            defaultValue={picker.owner ? String(picker.owner.id) : ""}
            options={ownerOptions(picker.choices, picker.me)}
          />
          <Field
            label="Note"
            id={`owner-note-${contactId}`}
            name="note"
            maxLength={500}
            placeholder="Booked for Tuesday: over to the closer"
            hint="Kept in the activity log."
          />
          <Button type="submit" variant="secondary" disabled={pending}>
            Save owner
          </Button>
        </Form>
      ) : (
        <p className="mt-2 text-xs text-fg-muted">Only a superuser can reassign another rep&apos;s contact.</p>
      )}
    </Card>
  );
}
