import { Alert, Dialog, DialogClose, DialogFooter } from "~/components/ui";

/** The one-time password, shown in the response that created it and nowhere else. */
export function OneTimePassword({ email, password }: { email: string; password: string }) {
  return (
    <div className="space-y-3 text-sm">
      <Alert tone="warning" role="status">
        Copy this password now: it is shown only once. {email} must change it at first sign-in.
      </Alert>
      <p>
        <span className="text-fg-muted">Email:</span> <span data-testid="otp-email">{email}</span>
      </p>
      <p>
        <span className="text-fg-muted">One-time password:</span>{" "}
        <code className="rounded bg-muted px-2 py-1 font-mono text-base select-all" data-testid="one-time-password">
          {password}
        </code>
      </p>
    </div>
  );
}

/** The dialog that answers a create or reset: the password once, then Done back to the list. */
export function OneTimePasswordDialog({ title, email, password }: { title: string; email: string; password: string }) {
  return (
    <Dialog title={title}>
      <OneTimePassword email={email} password={password} />
      <DialogFooter>
        <DialogClose>Done</DialogClose>
      </DialogFooter>
    </Dialog>
  );
}
