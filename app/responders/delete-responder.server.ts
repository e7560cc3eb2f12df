import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { autoResponders } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { RESPONDER_NOT_FOUND } from "./responder-schema";

export async function deleteResponder(db: Db, id: number) {
  const res = await db.delete(autoResponders).where(eq(autoResponders.id, id)).returning({ id: autoResponders.id });
  if (!res.length) throw new AppError("not_found", RESPONDER_NOT_FOUND);
}
