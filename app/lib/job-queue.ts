// Types both sides of the queue agree on, so that messaging (a producer and a consumer) and app/jobs (the
// dispatcher) need not import each other.

/** The part of a Queue binding that producers use (tests pass a recorder). */
export type JobQueue = {
  sendBatch(messages: Iterable<MessageSendRequest<unknown>>): Promise<unknown>;
  send(body: unknown, options?: QueueSendOptions): Promise<unknown>;
};

/** A consumer's answer for one job: retry after a delay, or (void) done — ack. */
export type JobOutcome = { retryAfterSeconds: number } | void;

/** Outcomes of a batch keyed by the job's own id (message id, import id), never by its position in the batch. */
export type JobOutcomes = Map<number, JobOutcome>;
