import { cx } from "./cx";
import { formatCount } from "~/lib/format-count";

export type ProgressPart = {
  label: string;
  value: number;
  tone: "primary" | "success" | "warning" | "danger" | "neutral";
};

const FILL: Record<ProgressPart["tone"], string> = {
  primary: "bg-primary",
  success: "bg-success-text",
  warning: "bg-warning-text",
  danger: "bg-danger-text",
  neutral: "bg-fg-subtle",
};

/** A stacked bar of parts out of `total` with a text legend (the figures are written out, so colour is not the only signal). */
export function ProgressBar({
  parts,
  total,
  label,
  className,
}: {
  parts: ProgressPart[];
  total: number;
  label: string;
  className?: string;
}) {
  const pct = (v: number) => (total > 0 ? Math.min(100, (v / total) * 100) : 0);
  return (
    <div className={className}>
      <div
        className="flex h-2 overflow-hidden rounded-full bg-muted"
        role="img"
        aria-label={`${label}: ${parts.map((p) => `${formatCount(p.value)} ${p.label}`).join(", ")}`}
      >
        {parts.map((p) => (
          <span key={p.label} className={cx("h-full", FILL[p.tone])} style={{ width: `${pct(p.value)}%` }} />
        ))}
      </div>
      <p className="mt-1 flex flex-wrap gap-x-3 text-xs text-fg-muted" aria-hidden="true">
        {parts.map((p) => (
          <span key={p.label}>
            {formatCount(p.value)} {p.label}
          </span>
        ))}
      </p>
    </div>
  );
}
