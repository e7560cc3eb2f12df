/** SPEC §2/§9 display rules for User Analytics, shared by the screen and its tests. */
export function displayName(u: { firstName?: string | null; lastName?: string | null; email: string }): string {
  return `${u.firstName ?? ""} ${u.lastName ?? ""}`.trim() || u.email.split("@")[0];
}

export const DETAILS_MAX = 50;

/** Details as text, cut to 50 characters plus "…"; "" when there are none. */
export function detailsText(details: Record<string, unknown> | null | undefined): string {
  if (!details || Object.keys(details).length === 0) return "";
  const text = JSON.stringify(details);
  return text.length > DETAILS_MAX ? `${text.slice(0, DETAILS_MAX)}…` : text;
}

export const USER_TABS = ["overview", "logs", "details"] as const;
export type UserTab = (typeof USER_TABS)[number];
