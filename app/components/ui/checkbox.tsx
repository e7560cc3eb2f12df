import type { ReactNode } from "react";
import { cx, focusRing } from "./cx";

/**
 * One labelled checkbox posting `name=value` (default "true") when ticked; the action reads an absent field as
 * "false" (`withDefaults`), so unticking it works without JS.
 */
export function Checkbox({
  name,
  label,
  value = "true",
  defaultChecked,
  className,
}: {
  name: string;
  label: ReactNode;
  value?: string;
  defaultChecked?: boolean;
  className?: string;
}) {
  return (
    <label className={cx("flex items-center gap-2 text-sm", className)}>
      <input
        type="checkbox"
        name={name}
        value={value}
        defaultChecked={defaultChecked}
        className={cx("size-4 accent-primary", focusRing)}
      />{" "}
      {label}
    </label>
  );
}
