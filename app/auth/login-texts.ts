// SPEC §5/§8 texts of the sign-in screen, in a module without zod so the page's JavaScript stays small.
export const MISSING_CREDENTIALS = {
  title: "Missing credentials",
  description: "Please enter both email and password",
} as const;
