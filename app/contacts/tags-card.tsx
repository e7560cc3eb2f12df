import { Form, useNavigation } from "@remix-run/react";
import { Badge, Button, Card, Field, PostButton } from "~/components/ui";
import { MAX_TAG_LENGTH } from "./contact-tag";

/**
 * A contact's tags and the forms that change them (issue 28 item 1). Plain forms to /contacts/:id/tags, so they work
 * without JavaScript; each tag's remove button names the tag for screen readers.
 */
export function TagsCard({ contactId, tags, back }: { contactId: number; tags: readonly string[]; back: string }) {
  const pending = useNavigation().state === "submitting";
  const action = `/contacts/${contactId}/tags`;
  return (
    <Card title="Tags">
      {tags.length ? (
        <ul className="flex flex-wrap gap-2" data-testid="contact-tags">
          {tags.map((tag) => (
            <li key={tag} className="flex items-center gap-1">
              <Badge>{tag}</Badge>
              <PostButton intent="remove" action={action} fields={{ tag, back }} of={tag} disabled={pending}>
                Remove
              </PostButton>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-fg-muted">No tags yet.</p>
      )}
      <Form method="post" action={action} className="mt-3 flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="back" value={back} />
        <Field label="Add a tag" id={`tag-${contactId}`} name="tag" required maxLength={MAX_TAG_LENGTH} />
        <Button type="submit" variant="secondary" disabled={pending}>
          Add tag
        </Button>
      </Form>
    </Card>
  );
}
