import type { ReactNode } from "react";
import { Alert } from "./alert";

/**
 * A secret the server shows once (a new API key, a webhook's signing secret): the heading says to copy it now, the
 * value sits in a wrapping code block (a long token never widens a phone screen), and `children` add how to use it.
 * The route answers it as action data, never through a redirect, so no cookie or URL carries it.
 */
export function SecretOnce({
  title,
  secret,
  children,
  ...rest
}: {
  title: ReactNode;
  secret: string;
  children?: ReactNode;
  "data-testid"?: string;
}) {
  const testId = rest["data-testid"];
  return (
    <Alert tone="success" data-testid={testId}>
      <p className="font-medium">{title}</p>
      <code
        className="mt-2 block break-all rounded bg-muted p-2 text-sm"
        data-testid={testId ? `${testId}-value` : undefined}
      >
        {secret}
      </code>
      {children}
    </Alert>
  );
}
