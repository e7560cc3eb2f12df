import type { Key, ReactNode } from "react";

/** `rows`: divided rows, each a body on the left and its actions on the right, wrapping on a phone. */
const LAYOUTS = {
  rows: { list: "divide-y divide-muted", item: "flex flex-wrap items-start justify-between gap-3 py-3" },
} as const;

/**
 * A short list inside a Card (dashboard, analytics, test screens, settings lists): one <li> per item from
 * `children(item)`, or the `empty` text/node when there are none. Plain server markup; nothing to hydrate.
 */
export function ItemList<T extends { id: Key }>({
  items,
  empty,
  className,
  itemClassName,
  itemTestId,
  layout,
  children,
  ...rest
}: {
  items: readonly T[];
  empty: ReactNode;
  className?: string;
  itemClassName?: string;
  itemTestId?: string;
  layout?: keyof typeof LAYOUTS;
  children: (item: T) => ReactNode;
  "data-testid"?: string;
}) {
  if (items.length === 0)
    return typeof empty === "string" ? <p className="text-sm text-fg-muted">{empty}</p> : <>{empty}</>;
  return (
    <ul className={className ?? (layout && LAYOUTS[layout].list)} {...rest}>
      {items.map((item) => (
        <li key={item.id} className={itemClassName ?? (layout && LAYOUTS[layout].item)} data-testid={itemTestId}>
          {children(item)}
        </li>
      ))}
    </ul>
  );
}
