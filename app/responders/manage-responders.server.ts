import { count, desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { autoResponders } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { parseResponder, RESPONDER_NOT_FOUND, type ResponderInput } from "./responder-schema";

export type Responder = typeof autoResponders.$inferSelect;
/** Responders are few (a team's handful of rules): the list is bounded rather than paged. */
export const MAX_RESPONDERS = 200;

export async function listResponders(db: Db) {
  return db.select().from(autoResponders).orderBy(desc(autoResponders.id)).limit(MAX_RESPONDERS);
}

export async function getResponder(db: Db, id: number) {
  const row = await db.select().from(autoResponders).where(eq(autoResponders.id, id)).get();
  if (!row) throw new AppError("not_found", RESPONDER_NOT_FOUND);
  return row;
}

function columns(r: ResponderInput) {
  return {
    name: r.name,
    keyword: r.keyword || r.keywords[0] || "",
    category: r.category,
    triggerType: r.triggerType,
    keywords: r.keywords,
    isActive: r.isActive,
    conditions: r.conditions,
    aiSettings: r.aiSettings,
    responses: r.responses,
    escalation: r.escalation,
    scheduling: r.scheduling,
    analytics: r.analytics,
  };
}

export async function createResponder(db: Db, input: ResponderInput, now: Date) {
  if ((await db.select({ n: count() }).from(autoResponders).get())!.n >= MAX_RESPONDERS) {
    throw new AppError("conflict", `At most ${MAX_RESPONDERS} auto-responders`);
  }
  return (
    await db
      .insert(autoResponders)
      .values({ ...columns(input), createdAt: now, updatedAt: now })
      .returning()
  )[0];
}

/** The stored responder as the SPEC's object (the shape the form and PUT merge into). */
export function responderObject(r: Responder): Record<string, unknown> {
  return {
    name: r.name,
    keyword: r.keyword,
    category: r.category,
    triggerType: r.triggerType,
    keywords: r.keywords,
    isActive: r.isActive,
    conditions: r.conditions ?? {},
    aiSettings: r.aiSettings ?? {},
    responses: r.responses ?? {},
    escalation: r.escalation ?? {},
    scheduling: r.scheduling ?? {},
    analytics: r.analytics ?? {},
  };
}

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
    .set({ ...columns(next), updatedAt: now })
    .where(eq(autoResponders.id, id))
    .returning();
  if (!rows[0]) throw new AppError("not_found", RESPONDER_NOT_FOUND);
  return rows[0];
}

export async function deleteResponder(db: Db, id: number) {
  const res = await db.delete(autoResponders).where(eq(autoResponders.id, id)).returning({ id: autoResponders.id });
  if (!res.length) throw new AppError("not_found", RESPONDER_NOT_FOUND);
}
