import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { Button } from "./button";
import { cx } from "./cx";

/** A bordered, horizontally scrolling table. Compose with THead/Th/Td; rows are plain <tr>. */
export function Table({
  children,
  className,
  caption,
  ...rest
}: {
  children: ReactNode;
  className?: string;
  caption?: ReactNode;
  "data-testid"?: string;
}) {
  return (
    <div className={cx("relative overflow-x-auto rounded-lg border border-border bg-surface", className)}>
      <table className="min-w-full divide-y divide-border text-sm" {...rest}>
        {caption ? (
          <caption className="bg-canvas px-3 py-2 text-left text-xs font-semibold text-fg-muted">{caption}</caption>
        ) : null}
        {children}
      </table>
    </div>
  );
}

/**
 * The header row: `columns` names each column (or pass `<Th>` children for anything richer); `actions` adds a last
 * column for row buttons, labelled for screen readers only.
 */
export function THead({
  columns,
  actions,
  children,
}: {
  columns?: readonly string[];
  actions?: boolean;
  children?: ReactNode;
}) {
  return (
    <thead className="bg-canvas text-left text-xs font-semibold tracking-wide text-fg-muted uppercase">
      <tr>
        {columns?.map((c) => (
          <Th key={c}>{c}</Th>
        ))}
        {children}
        {actions ? (
          <Th className="text-right">
            <span className="sr-only">Actions</span>
          </Th>
        ) : null}
      </tr>
    </thead>
  );
}

export function TBody({ children }: { children: ReactNode }) {
  return <tbody className="divide-y divide-muted">{children}</tbody>;
}

export function Th({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={cx("px-4 py-3", className)} {...props} />;
}

export function Td({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cx("px-4 py-3", className)} {...props} />;
}

/**
 * Keyset paging: "Previous" and "Next" links carrying the cursor in the URL (`?before=…` / `?after=…` by default),
 * keeping the other query parameters (search, tab) and dropping the opposite cursor. Renders nothing on a single page.
 */
export function Pager({
  search,
  prev,
  next,
  prevParam = "before",
  nextParam = "after",
  prevLabel = "Previous",
  nextLabel = "Next",
}: {
  /** The current query string (location.search). */
  search: string;
  prev: string | number | null | undefined;
  next: string | number | null | undefined;
  prevParam?: string;
  nextParam?: string;
  prevLabel?: string;
  nextLabel?: string;
}) {
  if (prev == null && next == null) return null;
  const href = (param: string, value: string | number) => {
    const p = new URLSearchParams(search);
    p.delete(prevParam);
    p.delete(nextParam);
    p.set(param, String(value));
    return `?${p}`;
  };
  return (
    <nav aria-label="Pagination" className="flex justify-between">
      {prev != null ? (
        <Button to={href(prevParam, prev)} variant="secondary">
          {prevLabel}
        </Button>
      ) : (
        <span />
      )}
      {next != null ? (
        <Button to={href(nextParam, next)} variant="secondary">
          {nextLabel}
        </Button>
      ) : null}
    </nav>
  );
}
