/** A user's name as the team sees it: first and last, else the email (users may have left their names blank). */
export const userName = (u: { firstName: string; lastName: string; email: string }) =>
  `${u.firstName} ${u.lastName}`.trim() || u.email;

/** A person's name as a homeowner reads it in a text: first and last, or null when both are blank. */
export const personName = (u: { firstName: string | null; lastName: string | null }) =>
  `${u.firstName ?? ""} ${u.lastName ?? ""}`.trim() || null;
