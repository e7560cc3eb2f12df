import { Form } from "@remix-run/react";
import type { LucideIcon } from "lucide-react";
import { Pencil, Plus, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "./button";
import { Card } from "./card";
import { Switch } from "./switch";
import { useResetOnSuccess } from "./use-reset-on-success";

/**
 * A settings tab that edits a list of records in place: the create/edit form on the left, the records as cards on
 * the right. Editing is `?edit=<id>` and deleting `?delete=<id>` (links, so it all works without JS).
 */
export function RecordEditor({ form, empty, children }: { form: ReactNode; empty?: ReactNode; children: ReactNode }) {
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      {form}
      <div className="grid content-start gap-4 sm:grid-cols-2 lg:col-span-2">
        {empty}
        {children}
      </div>
    </div>
  );
}

/**
 * The form card of a RecordEditor, posting to this page at `?<query>`. `editing` (the record's id and name) turns
 * "New …" into "Edit …", posts the id and offers Cancel back to `?<query>`; the submit button carries `intent`.
 * `key` resets uncontrolled fields when switching between create and edit.
 */
export function RecordForm({
  noun,
  editing,
  query,
  intent,
  failure,
  testId,
  children,
}: {
  /** `title` heads a new record ("New alert profile"); `button` names it on the submit ("Create Profile", "Save Profile"). */
  noun: { title: string; button: string };
  editing?: { id: number; name: string };
  /** The tab's query string without `?`, e.g. "tab=profiles". */
  query: string;
  intent: string;
  failure?: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  const resetting = useResetOnSuccess(Boolean(failure));
  return (
    <Card title={editing ? `Edit ${editing.name}` : `New ${noun.title}`} data-testid={`${testId}-card`}>
      <Form
        method="post"
        action={`?${query}`}
        className="space-y-3"
        data-testid={testId}
        key={`${testId}-${editing?.id ?? "new"}`}
        {...resetting}
      >
        {failure}
        {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
        {children}
        <div className="flex gap-2">
          <Button type="submit" name="intent" value={intent} icon={editing ? Pencil : Plus}>
            {editing ? `Save ${noun.button}` : `Create ${noun.button}`}
          </Button>
          {editing ? (
            <Button to={`?${query}`} variant="ghost">
              Cancel
            </Button>
          ) : null}
        </div>
      </Form>
    </Card>
  );
}

/**
 * One record of a RecordEditor: an Active switch posting `toggleIntent` to this page at `?<query>`, the body, then
 * Edit and Delete links (`?<query>&edit=<id>` / `&delete=<id>`).
 */
export function RecordCard({
  id,
  name,
  description,
  isActive,
  toggleIntent,
  query,
  testId,
  children,
}: {
  id: number;
  name: string;
  description?: ReactNode;
  isActive: boolean;
  toggleIntent: string;
  /** The tab's query string without `?`, e.g. "tab=profiles". */
  query: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Card
      title={name}
      description={description}
      data-testid={testId}
      actions={
        <Switch
          name="isActive"
          checked={isActive}
          label={`Active: ${name}`}
          action={`?${query}`}
          fields={{ intent: toggleIntent, id: String(id) }}
        />
      }
    >
      <div className="space-y-2 text-sm">
        {children}
        <div className="flex gap-2">
          <RecordLink to={`?${query}&edit=${id}`} icon={Pencil} variant="outline">
            Edit
          </RecordLink>
          <RecordLink to={`?${query}&delete=${id}`} icon={Trash2} variant="ghost">
            Delete
          </RecordLink>
        </div>
      </div>
    </Card>
  );
}

function RecordLink({
  to,
  icon,
  variant,
  children,
}: {
  to: string;
  icon: LucideIcon;
  variant: "outline" | "ghost";
  children: ReactNode;
}) {
  return (
    <Button to={to} size="sm" variant={variant} icon={icon} preventScrollReset>
      {children}
    </Button>
  );
}
