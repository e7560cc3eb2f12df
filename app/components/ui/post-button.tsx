import { Form } from "@remix-run/react";
import { Button, type ButtonVariant } from "./button";
import { HiddenFields } from "./hidden-fields";

type HiddenValue = string | number | null | undefined;

/**
 * A one-button POST form for a row or card action (revoke, delete, turn on/off, rotate, replay): the button posts
 * `intent` and the form's hidden `fields` (the id it acts on) to this route's action, or to `action`. In a list,
 * `of` names the row the button acts on: its accessible name is "<label> <of>" ("Revoke Zapier"), since every
 * row's button reads the same.
 */
export function PostButton({
  intent,
  fields,
  action,
  variant = "outline",
  disabled,
  of,
  children,
}: {
  intent: string;
  fields?: Record<string, HiddenValue>;
  action?: string;
  variant?: ButtonVariant;
  disabled?: boolean;
  of?: string;
  children: string;
}) {
  return (
    <Form method="post" action={action}>
      {fields ? <HiddenFields fields={fields} /> : null}
      <Button
        type="submit"
        name="intent"
        value={intent}
        variant={variant}
        size="sm"
        disabled={disabled}
        aria-label={of ? `${children} ${of}` : undefined}
      >
        {children}
      </Button>
    </Form>
  );
}
