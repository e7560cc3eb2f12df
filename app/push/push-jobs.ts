import type { JobQueue } from "~/lib/job-queue";
import type { PushJob } from "~/jobs/jobs";

/**
 * The producers of push jobs, for the hooks the composition root registers: they only enqueue (the inbound job and
 * the alert stay off the push services' latency); the `push` job reads and sends (notify-push, deliver-push).
 */
export async function enqueueReplyPushes(queue: JobQueue, messageIds: number[]) {
  if (!messageIds.length) return;
  await queue.sendBatch(
    messageIds.map((messageId) => ({
      body: { v: 1, type: "push", event: { kind: "reply", messageId } } satisfies PushJob,
    })),
  );
}

/** A lead's first picture was kept (decision 057): its owner hears of the bill (a push replacing the reply's). */
export async function enqueueBillPush(queue: JobQueue, messageId: number) {
  await queue.send({ v: 1, type: "push", event: { kind: "bill", messageId } } satisfies PushJob);
}

export async function enqueueHotLeadPush(queue: JobQueue, alertId: number) {
  await queue.send({ v: 1, type: "push", event: { kind: "hot-lead", alertId } } satisfies PushJob);
}

/** One `mention` push job per mentioned user (the mention hook, registered in app/wiring/mention-hooks.server.ts). */
export async function enqueueMentionPushes(queue: JobQueue, noteId: number, userIds: number[]) {
  if (!userIds.length) return;
  await queue.sendBatch(
    userIds.map((userId) => ({
      body: { v: 1, type: "push", event: { kind: "mention", noteId, userId } } satisfies PushJob,
    })),
  );
}
