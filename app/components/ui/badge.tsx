import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import type { Tone } from "./alert";
import { cx } from "./cx";

const BADGE: Record<Tone, string> = {
  neutral: "bg-muted text-fg-muted",
  primary: "bg-primary-soft text-primary-text",
  success: "bg-success-soft text-success-text ring-1 ring-success-border ring-inset",
  warning: "bg-warning-soft text-warning-text ring-1 ring-warning-border ring-inset",
  danger: "bg-danger-soft text-danger-text ring-1 ring-danger-border ring-inset",
  info: "bg-info-soft text-info-text ring-1 ring-info-border ring-inset",
  accent: "bg-accent-soft text-accent-text ring-1 ring-accent-border ring-inset",
};

/** A small status label. Pick the tone with `campaignStatusTone` / `messageStatusTone` where one applies. */
export function Badge({
  tone = "neutral",
  icon: Icon,
  className,
  children,
}: {
  tone?: Tone;
  icon?: LucideIcon;
  className?: string;
  children: ReactNode;
}) {
  return (
    <span
      className={cx(
        "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium",
        BADGE[tone],
        className,
      )}
    >
      {Icon ? <Icon aria-hidden="true" className="size-3" /> : null}
      {children}
    </span>
  );
}

/** "Active" (green) or "Inactive" — grey for a paused rule, red for a deactivated user (`inactiveTone`). */
export function ActiveBadge({ active, inactiveTone = "neutral" }: { active: boolean; inactiveTone?: Tone }) {
  return <Badge tone={active ? "success" : inactiveTone}>{active ? "Active" : "Inactive"}</Badge>;
}

const PRIORITY_TONE: Record<string, Tone> = { critical: "danger", high: "warning", medium: "info", low: "neutral" };

/** An alert, alert profile or keyword bank priority: critical red, high yellow, medium blue, low grey. */
export function PriorityBadge({ priority }: { priority: string }) {
  return <Badge tone={PRIORITY_TONE[priority] ?? "neutral"}>{priority}</Badge>;
}

/** SPEC §4 badge colours: draft grey, running green, paused yellow, completed blue (anything else grey). */
export function campaignStatusTone(status: string): Tone {
  switch (status) {
    case "running":
    case "active":
      return "success";
    case "paused":
      return "warning";
    case "completed":
      return "info";
    default:
      return "neutral";
  }
}

/** Message badges: inbound is info ("Received"); delivered green; failed/undelivered red; in flight yellow. */
export function messageStatusTone(status: string, direction: "inbound" | "outbound" = "outbound"): Tone {
  if (direction === "inbound") return "info";
  switch (status) {
    case "delivered":
      return "success";
    case "failed":
    case "undelivered":
      return "danger";
    case "queued":
    case "sending":
    case "pending":
    case "scheduled":
      return "warning";
    default:
      return "neutral";
  }
}
