import type { JobQueue } from "~/lib/job-queue";
import type { Db } from "./client.server";

/**
 * What a domain operation is handed by its caller (a route, a job handler, a cron task), built by the composition
 * root (app/wiring): the database, the queues, and `now` — the request's or event's instant, read once from the
 * root's clock so every row the operation writes carries the same time (decision 028). Operations that must see
 * time pass while they run (a paced send batch, a chunked import) take a `clock` instead.
 */
export type DomainContext = { db: Db; queue: JobQueue; now: Date };
