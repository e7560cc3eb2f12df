import { count, desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { alertProfiles, keywordBanks } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import {
  BANK_NOT_FOUND,
  parseBank,
  parseProfile,
  PROFILE_NOT_FOUND,
  type BankInput,
  type ProfileInput,
} from "./alert-schema";

export type AlertProfile = typeof alertProfiles.$inferSelect;
export type KeywordBank = typeof keywordBanks.$inferSelect;
/** Profiles and banks are a team's handful of rules: lists are bounded rather than paged. */
export const MAX_ALERT_RULES = 200;

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

export const listProfiles = (db: Db) =>
  db.select().from(alertProfiles).orderBy(desc(alertProfiles.id)).limit(MAX_ALERT_RULES);
export const listBanks = (db: Db) =>
  db.select().from(keywordBanks).orderBy(desc(keywordBanks.id)).limit(MAX_ALERT_RULES);

export async function getProfile(db: Db, id: number) {
  const row = await db.select().from(alertProfiles).where(eq(alertProfiles.id, id)).get();
  if (!row) throw new AppError("not_found", PROFILE_NOT_FOUND);
  return row;
}
export async function getBank(db: Db, id: number) {
  const row = await db.select().from(keywordBanks).where(eq(keywordBanks.id, id)).get();
  if (!row) throw new AppError("not_found", BANK_NOT_FOUND);
  return row;
}

async function refuseOverLimit(db: Db, table: "alert_profiles" | "keyword_banks") {
  const n = (await db
    .select({ n: count() })
    .from(table === "alert_profiles" ? alertProfiles : keywordBanks)
    .get())!.n;
  if (n >= MAX_ALERT_RULES)
    throw new AppError(
      "conflict",
      `At most ${MAX_ALERT_RULES} ${table === "alert_profiles" ? "alert profiles" : "keyword banks"}`,
    );
}

async function requireProfileRef(db: Db, id: number | null) {
  if (
    id !== null &&
    !(await db.select({ id: alertProfiles.id }).from(alertProfiles).where(eq(alertProfiles.id, id)).get())
  ) {
    throw new AppError("validation", PROFILE_NOT_FOUND, { field: "alertProfileId" });
  }
}

export async function createProfile(db: Db, input: ProfileInput, now: Date) {
  await refuseOverLimit(db, "alert_profiles");
  return (
    await db
      .insert(alertProfiles)
      .values({ ...input, createdAt: now, updatedAt: now })
      .returning()
  )[0];
}

export function profileObject(p: AlertProfile): Record<string, unknown> {
  return {
    name: p.name,
    department: p.department,
    keywords: p.keywords,
    contactInfo: p.contactInfo ?? "",
    priority: p.priority,
    responseTemplate: p.responseTemplate ?? "",
    escalationTime: p.escalationTime,
    ownerEscalationMinutes: p.ownerEscalationMinutes,
    isActive: p.isActive,
  };
}

/** Partial update (e.g. `{ isActive: false }`), validated whole. */
export async function updateProfile(db: Db, id: number, patch: unknown, now: Date) {
  if (!isObj(patch)) throw new AppError("validation", "Request body must be an alert profile object");
  const next = parseProfile({ ...profileObject(await getProfile(db, id)), ...patch });
  return (
    await db
      .update(alertProfiles)
      .set({ ...next, updatedAt: now })
      .where(eq(alertProfiles.id, id))
      .returning()
  )[0];
}

export async function deleteProfile(db: Db, id: number) {
  const res = await db.delete(alertProfiles).where(eq(alertProfiles.id, id)).returning({ id: alertProfiles.id });
  if (!res.length) throw new AppError("not_found", PROFILE_NOT_FOUND);
}

export async function createBank(db: Db, input: BankInput, now: Date) {
  await refuseOverLimit(db, "keyword_banks");
  await requireProfileRef(db, input.alertProfileId);
  return (
    await db
      .insert(keywordBanks)
      .values({ ...input, createdAt: now, updatedAt: now })
      .returning()
  )[0];
}

export function bankObject(b: KeywordBank): Record<string, unknown> {
  return {
    category: b.category,
    keywords: b.keywords,
    priority: b.priority,
    alertProfileId: b.alertProfileId,
    autoResponse: b.autoResponse ?? "",
    useAI: b.useAi,
    aiPrompt: b.aiPrompt ?? "",
    isActive: b.isActive,
  };
}

export async function updateBank(db: Db, id: number, patch: unknown, now: Date) {
  if (!isObj(patch)) throw new AppError("validation", "Request body must be a keyword bank object");
  const p = { ...patch };
  if ("useAi" in p && !("useAI" in p)) p.useAI = p.useAi;
  const next = parseBank({ ...bankObject(await getBank(db, id)), ...p });
  await requireProfileRef(db, next.alertProfileId);
  return (
    await db
      .update(keywordBanks)
      .set({ ...next, updatedAt: now })
      .where(eq(keywordBanks.id, id))
      .returning()
  )[0];
}

export async function deleteBank(db: Db, id: number) {
  const res = await db.delete(keywordBanks).where(eq(keywordBanks.id, id)).returning({ id: keywordBanks.id });
  if (!res.length) throw new AppError("not_found", BANK_NOT_FOUND);
}

/** The API shape of a bank: `useAI` as the SPEC spells it. */
export function publicBank(b: KeywordBank) {
  const { useAi, ...rest } = b;
  return { ...rest, useAI: useAi };
}
