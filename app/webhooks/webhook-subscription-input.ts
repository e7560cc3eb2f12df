import { z } from "zod";
import { WEBHOOK_EVENTS } from "~/db/schema/webhook-subscriptions";

// A subscription's fields, in a module the browser bundle keeps: the Webhooks screen builds its form schema from it
// at load, and a .server module is empty in the browser (its exports undefined, the screen's script would throw).
export const webhookSubscriptionInput = z.object({
  url: z.string().trim().min(1, "Enter the URL").max(2000),
  description: z.string().trim().max(200).default(""),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1, "Choose at least one event").max(WEBHOOK_EVENTS.length),
  maxPerHour: z.coerce.number().int().min(1).max(100_000).default(600),
});
export type WebhookSubscriptionInput = z.infer<typeof webhookSubscriptionInput>;
