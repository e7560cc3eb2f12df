import { z } from "zod";

import { MISSING_CREDENTIALS } from "./login-texts";

export { MISSING_CREDENTIALS };

/** RFC 5321's longest usable address: nothing longer can be an account, nor is stored in login_history (issue 23). */
export const EMAIL_MAX = 254;
/** Hashed only up to this length: longer is a mistake or an attempt to make PBKDF2 and the request body costly. */
export const PASSWORD_MAX = 256;
export const EMAIL_TOO_LONG = `Email must be at most ${EMAIL_MAX} characters`;
export const PASSWORD_TOO_LONG = `Password must be at most ${PASSWORD_MAX} characters`;

export const loginSchema = z.object({
  email: z
    .string({ required_error: MISSING_CREDENTIALS.description })
    .trim()
    .min(1, MISSING_CREDENTIALS.description)
    .max(EMAIL_MAX, EMAIL_TOO_LONG),
  password: z
    .string({ required_error: MISSING_CREDENTIALS.description })
    .min(1, MISSING_CREDENTIALS.description)
    .max(PASSWORD_MAX, PASSWORD_TOO_LONG),
});
