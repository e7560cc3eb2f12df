import { z } from "zod";

/**
 * Queue messages are a versioned, validated union. Anything that does not parse is acked and
 * logged (never retried forever); each type has one handler in handle-job-batch.server.ts.
 */
export const sendJob = z.object({ v: z.literal(1), type: z.literal("send"), messageId: z.number().int().positive() });
export const inboundJob = z.object({ v: z.literal(1), type: z.literal("inbound"), messageId: z.number().int().positive() });
export const importContactsJob = z.object({ v: z.literal(1), type: z.literal("import-contacts"), importId: z.number().int().positive() });
export const jobSchema = z.discriminatedUnion("type", [sendJob, inboundJob, importContactsJob]);
export type Job = z.infer<typeof jobSchema>;
export type SendJob = z.infer<typeof sendJob>;
export type InboundJob = z.infer<typeof inboundJob>;
export type ImportContactsJob = z.infer<typeof importContactsJob>;

/** The id a handler keys its outcome by: the message for send/inbound jobs, the import for import jobs. */
export function jobKey(job: Job): number {
  return job.type === "import-contacts" ? job.importId : job.messageId;
}
