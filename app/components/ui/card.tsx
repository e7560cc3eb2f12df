import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cx } from "./cx";
import { formatCount } from "~/lib/format-count";

/**
 * A white panel with a border; `title` adds a heading row (with optional `actions` on the right). `min-w-0` and
 * `wrap-anywhere`: a card is usually a grid or flex item, and one long word (an email, a URL) in it must wrap
 * instead of widening the page on a phone.
 */
export function Card({
  title,
  description,
  actions,
  className,
  children,
  ...rest
}: {
  title?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  className?: string;
  children?: ReactNode;
  /** An anchor a link can point at (an alert email's "/compliance#sending-numbers"). */
  id?: string;
  "data-testid"?: string;
}) {
  return (
    <section
      className={cx("min-w-0 rounded-lg border border-border bg-surface p-4 text-fg wrap-anywhere", className)}
      {...rest}
    >
      {title || actions ? (
        <div className="mb-3 flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            {title ? <h3 className="font-semibold">{title}</h3> : null}
            {description ? <p className="text-sm text-fg-muted">{description}</p> : null}
          </div>
          {actions}
        </div>
      ) : null}
      {children}
    </section>
  );
}

/** A screen's title row: the h2 (data-testid="page-title"), an optional line under it, actions on the right. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div>
        <h2 className="text-2xl font-bold" data-testid="page-title">
          {title}
        </h2>
        {description ? <div className="text-sm text-fg-muted">{description}</div> : null}
      </div>
      {actions ? <div className="flex max-w-full flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

/** One figure with its label (dashboard, analytics): value defaults to 0 when missing. */
export function StatCard({
  label,
  value,
  icon: Icon,
  hint,
}: {
  label: string;
  value: number | string | null | undefined;
  icon?: LucideIcon;
  hint?: ReactNode;
}) {
  return (
    <div className="rounded-lg border border-border bg-surface p-5">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm font-medium text-fg-muted">{label}</p>
        {Icon ? <Icon aria-hidden="true" className="size-5 text-primary-text" /> : null}
      </div>
      <p className="mt-2 text-3xl font-bold">{typeof value === "number" ? formatCount(value) : (value ?? 0)}</p>
      {hint ? <p className="mt-1 text-xs text-fg-subtle">{hint}</p> : null}
    </div>
  );
}

/** What a list says when it has nothing: a title, an optional line of help and an optional action. */
export function EmptyState({
  title,
  description,
  icon: Icon,
  action,
  className,
  ...rest
}: {
  title: ReactNode;
  description?: ReactNode;
  icon?: LucideIcon;
  action?: ReactNode;
  className?: string;
  "data-testid"?: string;
}) {
  return (
    <div className={cx("p-10 text-center", className)} {...rest}>
      {Icon ? <Icon aria-hidden="true" className="mx-auto mb-3 size-8 text-fg-subtle" /> : null}
      <p className="font-medium">{title}</p>
      {description ? <p className="mt-1 text-sm text-fg-subtle">{description}</p> : null}
      {action ? <div className="mt-4">{action}</div> : null}
    </div>
  );
}
