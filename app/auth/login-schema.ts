import { z } from "zod";

import { MISSING_CREDENTIALS } from "./login-texts";

export { MISSING_CREDENTIALS };

export const loginSchema = z.object({
  email: z.string({ required_error: MISSING_CREDENTIALS.description }).trim().min(1, MISSING_CREDENTIALS.description),
  password: z.string({ required_error: MISSING_CREDENTIALS.description }).min(1, MISSING_CREDENTIALS.description),
});
