// SPEC §9: one toast at a time, 5000 ms, swipe right past 50 px, F8 focuses the region, max 420 px wide.
export const DURATION = 5000;

export const variantClass = {
  default: "border-border bg-surface text-fg",
  destructive: "border-danger bg-danger text-danger-fg",
};
