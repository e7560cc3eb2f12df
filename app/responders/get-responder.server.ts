import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { autoResponders } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { RESPONDER_NOT_FOUND } from "./responder-schema";

export async function getResponder(db: Db, id: number) {
  const row = await db.select().from(autoResponders).where(eq(autoResponders.id, id)).get();
  if (!row) throw new AppError("not_found", RESPONDER_NOT_FOUND);
  return row;
}
