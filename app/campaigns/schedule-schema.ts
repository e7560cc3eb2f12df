import { z } from "zod";
import { INVALID_START_AT, scheduledInstant } from "./local-time";

/** ScheduleFields' three posted values, spread into a screen form's schema (campaign create, Quick Send). */
export const scheduleFields = { schedule: z.unknown(), startAt: z.unknown(), tz: z.unknown() };

/**
 * Inside the schema's transform: the instant the fields name (undefined for "now"), or null after adding the one
 * "Please enter a valid date and time" issue on `startAt` (the caller then returns z.NEVER).
 */
export function readSchedule(
  f: { schedule?: unknown; startAt?: unknown; tz?: unknown },
  ctx: z.RefinementCtx,
): Date | undefined | null {
  const at = scheduledInstant(f);
  if (at === null) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["startAt"], message: INVALID_START_AT });
  return at;
}
