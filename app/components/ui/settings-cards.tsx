import { Form } from "@remix-run/react";
import type { LucideIcon } from "lucide-react";
import type { Key, ReactNode } from "react";
import { Alert } from "./alert";
import { Button } from "./button";
import { Card, EmptyState } from "./card";
import { cx } from "./cx";
import { ItemList } from "./item-list";

/**
 * The "New …" card of a settings list (API keys, webhooks, lead triggers): a POST form of its own posting
 * `intent=create`, the failure that belongs to no field above the fields, and the submit button, disabled and
 * relabelled while it posts.
 */
export function CreateFormCard({
  title,
  error,
  submitLabel,
  pendingLabel,
  pending,
  children,
  ...rest
}: {
  title: string;
  /** formErrorOf(the create failure, the fields shown): the message no field shows. */
  error: string | null;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  children: ReactNode;
  "data-testid"?: string;
}) {
  return (
    <Card title={title}>
      <Form method="post" className="max-w-lg space-y-4" {...rest}>
        <input type="hidden" name="intent" value="create" />
        {error ? <Alert tone="danger">{error}</Alert> : null}
        {children}
        <Button type="submit" disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </Form>
    </Card>
  );
}

/**
 * The list card beside it: a row action's failure (a PostButton's) above the rows, then one row per item — its body
 * (`children`) on the left, its buttons (`actions`) on the right, wrapping on a phone — or an EmptyState.
 */
export function RowsCard<T extends { id: Key }>({
  title,
  error,
  items,
  empty,
  itemTestId,
  bodyClassName,
  children,
  actions,
  ...rest
}: {
  title: string;
  error?: string | null;
  items: readonly T[];
  empty: { icon: LucideIcon; title: string; description: string };
  itemTestId: string;
  /** Extra classes for each row's body (e.g. `text-sm`). */
  bodyClassName?: string;
  children: (item: T) => ReactNode;
  actions?: (item: T) => ReactNode;
  "data-testid": string;
}) {
  return (
    <Card title={title}>
      {error ? <Alert tone="danger">{error}</Alert> : null}
      <ItemList items={items} layout="rows" itemTestId={itemTestId} empty={<EmptyState {...empty} />} {...rest}>
        {(item) => (
          <>
            <div className={cx("min-w-0 space-y-1", bodyClassName)}>{children(item)}</div>
            {actions?.(item)}
          </>
        )}
      </ItemList>
    </Card>
  );
}
