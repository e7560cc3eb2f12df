import { z } from "zod";

export const MISSING_CREDENTIALS = { title: "Missing credentials", description: "Please enter both email and password" } as const;

export const loginSchema = z.object({
  email: z.string({ required_error: MISSING_CREDENTIALS.description }).trim().min(1, MISSING_CREDENTIALS.description),
  password: z.string({ required_error: MISSING_CREDENTIALS.description }).min(1, MISSING_CREDENTIALS.description),
});
