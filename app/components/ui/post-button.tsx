import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { Button, type ButtonVariant } from "./button";
import { HiddenFields } from "./hidden-fields";

type HiddenValue = string | number | null | undefined;

/**
 * A one-button POST form for a row or card action (revoke, delete, turn on/off, rotate, replay): the button posts
 * `intent` and the form's hidden `fields` (the id it acts on) to this route's action, or to `action`. A list row
 * names what it acts on in `aria-label` ("Revoke Zapier"), since every row's button reads the same.
 */
export function PostButton({
  intent,
  fields,
  action,
  variant = "outline",
  disabled,
  children,
  ...rest
}: {
  intent: string;
  fields?: Record<string, HiddenValue>;
  action?: string;
  variant?: ButtonVariant;
  disabled?: boolean;
  children: ReactNode;
  "aria-label"?: string;
}) {
  return (
    <Form method="post" action={action}>
      {fields ? <HiddenFields fields={fields} /> : null}
      <Button type="submit" name="intent" value={intent} variant={variant} size="sm" disabled={disabled} {...rest}>
        {children}
      </Button>
    </Form>
  );
}
