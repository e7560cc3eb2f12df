import { cx } from "./cx";

/** A grey placeholder block while data loads (decorative: pair it with a Spinner or text for screen readers). */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cx("animate-pulse rounded-md bg-muted", className)} />;
}

/** A spinning ring with a label, announced as a status ("Loading..." by default, SPEC §2). */
export function Spinner({ label = "Loading..." }: { label?: string }) {
  return (
    <div role="status" className="flex items-center gap-2 text-sm text-fg-muted">
      <span
        aria-hidden="true"
        className="inline-block size-5 animate-spin rounded-full border-2 border-primary border-t-transparent"
      />
      {label}
    </div>
  );
}
