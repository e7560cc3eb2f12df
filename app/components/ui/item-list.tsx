import type { Key, ReactNode } from "react";

/**
 * A short list inside a Card (dashboard, analytics, test screens): one <li> per item from `children(item)`, or the
 * `empty` text/node when there are none. Plain server markup; nothing to hydrate.
 */
export function ItemList<T extends { id: Key }>({
  items,
  empty,
  className,
  itemClassName,
  itemTestId,
  children,
  ...rest
}: {
  items: readonly T[];
  empty: ReactNode;
  className?: string;
  itemClassName?: string;
  itemTestId?: string;
  children: (item: T) => ReactNode;
  "data-testid"?: string;
}) {
  if (items.length === 0)
    return typeof empty === "string" ? <p className="text-sm text-fg-muted">{empty}</p> : <>{empty}</>;
  return (
    <ul className={className} {...rest}>
      {items.map((item) => (
        <li key={item.id} className={itemClassName} data-testid={itemTestId}>
          {children(item)}
        </li>
      ))}
    </ul>
  );
}
