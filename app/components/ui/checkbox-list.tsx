import type { ReactNode } from "react";
import { cx, focusRing } from "./cx";

export type CheckboxItem = { value: string; label: ReactNode; detail?: ReactNode };

/**
 * A height-capped, scrollable list of checkboxes posting `name=value` for each checked row (a picker). Values
 * picked earlier but not on this page ride along as hidden inputs (`keep`), so paging or searching — a GET that
 * re-renders the form — keeps them.
 */
export function CheckboxList({
  name,
  items,
  checked,
  keep = [],
  label,
  maxHeightClass = "max-h-64",
  empty,
  footer,
  errors,
  showLabel = false,
  ...rest
}: {
  name: string;
  items: CheckboxItem[];
  checked: ReadonlySet<string>;
  /** Checked values not in `items` (posted as hidden inputs). */
  keep?: string[];
  /** Accessible name of the group. */
  label: string;
  maxHeightClass?: string;
  empty?: ReactNode;
  footer?: ReactNode;
  /** The action's errors for `name` (fieldErrorsOf), the first shown under the list. */
  errors?: readonly string[] | null;
  /** Also show `label` above the list (a form's checkbox group), not only to screen readers. */
  showLabel?: boolean;
  "data-testid"?: string;
}) {
  const list = (
    // min-w-0: a fieldset is otherwise as wide as its longest unbreakable line (min-inline-size: min-content),
    // and a truncated detail would push a 390 px phone sideways.
    <fieldset className="min-w-0 rounded-md border border-border" {...rest}>
      <legend className="sr-only">{label}</legend>
      {keep.map((v) => (
        <input key={v} type="hidden" name={name} value={v} />
      ))}
      <ul className={cx("divide-y divide-border overflow-y-auto", maxHeightClass)}>
        {items.length === 0 ? (
          <li className="p-4 text-center text-sm text-fg-subtle">{empty ?? "Nothing to show"}</li>
        ) : null}
        {items.map((it) => (
          <CheckboxRow key={it.value} name={name} item={it} checked={checked.has(it.value)} />
        ))}
      </ul>
      {footer ? <div className="border-t border-border px-3 py-2 text-sm">{footer}</div> : null}
    </fieldset>
  );
  const error = errors?.length ? <p className="text-sm text-danger">{errors[0]}</p> : null;
  return showLabel ? (
    <div className="space-y-1">
      <p className="text-sm font-medium">{label}</p>
      {list}
      {error}
    </div>
  ) : (
    <>
      {list}
      {error}
    </>
  );
}

function CheckboxRow({ name, item, checked }: { name: string; item: CheckboxItem; checked: boolean }) {
  return (
    <li>
      <label className="flex cursor-pointer items-start gap-3 px-3 py-2 hover:bg-muted">
        <input
          type="checkbox"
          name={name}
          value={item.value}
          defaultChecked={checked}
          className={cx("mt-0.5 size-4 shrink-0 rounded border-input accent-primary", focusRing)}
        />
        <span className="min-w-0 text-sm">
          <span className="block font-medium">{item.label}</span>
          {item.detail ? <span className="block truncate text-xs text-fg-muted">{item.detail}</span> : null}
        </span>
      </label>
    </li>
  );
}
