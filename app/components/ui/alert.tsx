import type { ReactNode } from "react";
import { cx } from "./cx";

export type Tone = "neutral" | "primary" | "success" | "warning" | "danger" | "info" | "accent";

const ALERT: Record<Tone, string> = {
  neutral: "border-border bg-canvas text-fg-muted",
  primary: "border-primary bg-primary-soft text-fg",
  success: "border-success-border bg-success-soft text-success-text",
  warning: "border-warning-border bg-warning-soft text-warning-text",
  danger: "border-danger-border bg-danger-soft text-danger-text",
  info: "border-info-border bg-info-soft text-info-text",
  accent: "border-accent-border bg-accent-soft text-accent-text",
};

/**
 * A boxed message. Danger alerts are role="alert" (announced); others are plain unless `role` says otherwise.
 * Server-rendered, so a failed no-JS post shows its error here.
 */
export function Alert({
  tone = "neutral",
  role,
  className,
  children,
  ...rest
}: { tone?: Tone; role?: "alert" | "status"; className?: string; children: ReactNode } & {
  id?: string;
  "data-testid"?: string;
}) {
  return (
    <div
      role={role ?? (tone === "danger" ? "alert" : undefined)}
      className={cx("rounded-md border p-3 text-sm", ALERT[tone], className)}
      {...rest}
    >
      {children}
    </div>
  );
}
