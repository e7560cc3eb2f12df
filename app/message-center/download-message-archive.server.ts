import { asc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { messageArchives } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { PARTS_PER_DOWNLOAD } from "./list-message-archives.server";

export const ARCHIVE_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * One month of archived messages as a single gzip file: its parts (each a complete gzip member) streamed one after
 * another in key order, which gunzip, zcat and every gzip library read as one NDJSON file. A month with more than
 * PARTS_PER_DOWNLOAD parts comes as several files (`file` 1, 2, …).
 */
export async function downloadMessageArchive(db: Db, bucket: Pick<R2Bucket, "get">, month: string, file = 1) {
  if (!ARCHIVE_MONTH.test(month) || !Number.isInteger(file) || file < 1)
    throw new AppError("not_found", "No archive for that month");
  const keys = (
    await db
      .select({ key: messageArchives.key })
      .from(messageArchives)
      .where(eq(messageArchives.month, month))
      .orderBy(asc(messageArchives.key))
      .limit(PARTS_PER_DOWNLOAD)
      .offset((file - 1) * PARTS_PER_DOWNLOAD)
  ).map((r) => r.key);
  if (keys.length === 0) throw new AppError("not_found", "No archive for that month");
  let next = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (!reader) {
          if (next === keys.length) return controller.close();
          const key = keys[next++];
          const object = await bucket.get(key);
          if (!object) throw new Error(`archive object missing from R2: ${key}`);
          reader = object.body.getReader();
        }
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
        reader = null;
      }
    },
    cancel: () => reader?.cancel(),
  });
  return { body, fileName: `helio-messages-${month}${file > 1 ? `-${file}` : ""}.ndjson.gz` };
}
