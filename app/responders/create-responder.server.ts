import { count } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { autoResponders } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { MAX_RESPONDERS } from "./list-responders.server";
import { responderColumns } from "./responder-row.server";
import type { ResponderInput } from "./responder-schema";

export async function createResponder(db: Db, input: ResponderInput, now: Date) {
  if ((await db.select({ n: count() }).from(autoResponders).get())!.n >= MAX_RESPONDERS) {
    throw new AppError("conflict", `At most ${MAX_RESPONDERS} auto-responders`);
  }
  return (
    await db
      .insert(autoResponders)
      .values({ ...responderColumns(input), createdAt: now, updatedAt: now })
      .returning()
  )[0];
}
