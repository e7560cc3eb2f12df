import * as SwitchPrimitive from "@radix-ui/react-switch";
import { useFetcher } from "@remix-run/react";
import { useId } from "react";
import { useHydrated } from "~/lib/use-hydrated";
import { cx, focusRing } from "./cx";
import { HiddenFields } from "./hidden-fields";

const track = (on: boolean) =>
  cx(
    "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors disabled:opacity-60",
    focusRing,
    on ? "bg-primary" : "bg-input",
  );
const thumb = (on: boolean) =>
  cx("block size-5 rounded-full bg-surface shadow transition-transform", on ? "translate-x-5" : "translate-x-0.5");

/**
 * An on/off setting saved by a form post. Without JS it is a submit button (role="switch") posting
 * `name=<the new value>` ("true"/"false") plus `fields` to `action`; the action redirects back. With JS a Radix
 * Switch posts the same form through a fetcher and shows the new state at once.
 */
export function Switch({
  name,
  checked,
  label,
  action,
  fields,
  disabled,
}: {
  name: string;
  checked: boolean;
  /** Accessible name, e.g. `Active: ${responder.keyword}`. */
  label: string;
  /** Route that handles the post (defaults to the current one). */
  action?: string;
  fields?: Record<string, string>;
  disabled?: boolean;
}) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const labelId = useId();
  const pending = fetcher.formData?.get(name);
  const on = typeof pending === "string" ? pending === "true" : checked;

  return (
    <fetcher.Form method="post" action={action} className="inline-flex items-center gap-2">
      <HiddenFields fields={{ ...fields, [name]: String(!on) }} />
      <span id={labelId} className="sr-only">
        {label}
      </span>
      {hydrated ? (
        <SwitchPrimitive.Root
          type="submit"
          checked={on}
          disabled={disabled}
          aria-labelledby={labelId}
          className={track(on)}
        >
          <SwitchPrimitive.Thumb className={thumb(on)} />
        </SwitchPrimitive.Root>
      ) : (
        <button
          type="submit"
          role="switch"
          aria-checked={on}
          aria-labelledby={labelId}
          disabled={disabled}
          className={track(on)}
        >
          <span className={thumb(on)} />
        </button>
      )}
    </fetcher.Form>
  );
}
