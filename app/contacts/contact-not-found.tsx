import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { Dialog } from "~/components/ui";

/** ErrorBoundary of the contact dialogs: the list stays visible behind the message. */
export function ContactNotFound() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <Dialog title={notFound ? "Not found" : "Something went wrong"}>
      <p role="alert" className="text-sm text-fg-muted">
        {notFound ? String(error.data || "Not found") : "An unexpected error occurred. Please try again."}
      </p>
    </Dialog>
  );
}
