import { Form, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { Alert } from "./alert";
import { Dialog, DialogActions } from "./dialog";

/**
 * A route dialog asking to confirm one action: the message, then a POST form (to this route's action unless
 * `action` says otherwise) with Cancel (closes to the parent route) and the confirm button.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  pendingLabel,
  destructive = false,
  action,
  fields,
  error,
  closeTo,
}: {
  title: string;
  /** The question and any detail. */
  children: ReactNode;
  confirmLabel: string;
  /** Label while the post is in flight (JS only), e.g. "Deleting...". */
  pendingLabel?: string;
  destructive?: boolean;
  action?: string;
  /** Hidden fields posted with the confirmation. */
  fields?: Record<string, string>;
  /** A failure from the action, shown above the message. */
  error?: { title: string; description: string } | null;
  /** Where Cancel and closing go (default: the parent route). */
  closeTo?: string;
}) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  return (
    <Dialog title={title} closeTo={closeTo}>
      {error ? (
        <Alert tone="danger" className="mb-4">
          <strong>{error.title}</strong>: {error.description}
        </Alert>
      ) : null}
      <div className="text-sm">{children}</div>
      <Form method="post" action={action} className="mt-6">
        {Object.entries(fields ?? {}).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <DialogActions
          label={confirmLabel}
          pendingLabel={pendingLabel}
          pending={pending}
          variant={destructive ? "destructive" : "primary"}
        />
      </Form>
    </Dialog>
  );
}
