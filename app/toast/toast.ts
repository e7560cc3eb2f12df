import { z } from "zod";

export const toastSchema = z.object({
  id: z
    .string()
    .max(64)
    .default(() => crypto.randomUUID()),
  title: z.string().max(1000),
  description: z.string().max(4096).optional(),
  variant: z.enum(["default", "destructive"]).default("default"),
});
export type Toast = z.infer<typeof toastSchema>;
export type ToastInput = z.input<typeof toastSchema>;
