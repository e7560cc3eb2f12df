import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { autoResponders } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { getResponder } from "./get-responder.server";
import { responderColumns, responderObject } from "./responder-row.server";
import { parseResponder, RESPONDER_NOT_FOUND } from "./responder-schema";

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
function deepMerge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch))
    out[k] = isObj(v) && isObj(base[k]) ? deepMerge(base[k] as Record<string, unknown>, v) : v;
  return out;
}

/** A partial update (e.g. `{ isActive: false }`): merged into the stored responder, then validated whole. */
export async function updateResponder(db: Db, id: number, patch: unknown, now: Date) {
  if (!isObj(patch)) throw new AppError("validation", "Request body must be an auto-responder object");
  const current = await getResponder(db, id);
  const next = parseResponder(deepMerge(responderObject(current), patch));
  const rows = await db
    .update(autoResponders)
    .set({ ...responderColumns(next), updatedAt: now })
    .where(eq(autoResponders.id, id))
    .returning();
  if (!rows[0]) throw new AppError("not_found", RESPONDER_NOT_FOUND);
  return rows[0];
}
