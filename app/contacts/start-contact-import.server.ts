import { and, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contactImports, type ConsentPurpose, type ContactImport, type DuplicateMode, type Role } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { getContactImport } from "./get-contact-import.server";
import { importNextChunk } from "./import-next-chunk.server";
import type { Clock } from "~/lib/clock";
import { assertOwnerAllowed } from "./set-contact-owner.server";

export const NO_VALID_CONTACTS = "No valid contacts";

/** The owner chosen for the whole file, and the role of who chose it (decision 044). */
export type FileOwner = { ownerUserId: number | null; role: Role };

/**
 * A list's consent record (decision 071): the seller who obtained the leads' consent and the exact wording they agreed
 * to, as the lead vendor or the team's own form showed it. Blank = none.
 */
/** An imported list's consent record (decisions 071, 072): the seller, the wording, what it covered. */
export type ImportConsent = { seller: string | null; text: string | null; purpose?: ConsentPurpose };

/**
 * Moves a staged import to `importing` with the chosen duplicate handling and the file's owner (once: a second
 * confirm is a no-op). The owner follows setContactOwner's rule (a standard user: themselves or nobody).
 */
export async function confirmContactImport(
  db: Db,
  id: number,
  userId: number,
  mode: DuplicateMode,
  now: Date,
  owner: FileOwner | null = null,
  consent: ImportConsent | null = null,
) {
  const imp = await getContactImport(db, id, userId);
  if (imp.validRows === 0) throw new AppError("validation", NO_VALID_CONTACTS);
  if (imp.status !== "staged") return imp;
  const ownerUserId = owner?.ownerUserId ?? null;
  if (owner) await assertOwnerAllowed(db, ownerUserId, { userId, ipAddress: null, role: owner.role });
  await db
    .update(contactImports)
    .set({
      status: "importing",
      duplicateMode: mode,
      ownerUserId,
      consentSeller: consent?.seller || null,
      consentText: consent?.text || null,
      consentPurpose: consent?.purpose === "informational" ? "informational" : null,
      updatedAt: now,
    })
    .where(and(eq(contactImports.id, id), eq(contactImports.status, "staged")));
  return {
    ...imp,
    status: "importing" as const,
    duplicateMode: mode,
    ownerUserId,
    consentSeller: consent?.seller || null,
    consentText: consent?.text || null,
    consentPurpose: consent?.purpose === "informational" ? ("informational" as const) : null,
  };
}

/**
 * Confirms an import and works one chunk inline, so a small file is finished when the response comes back;
 * anything left goes to the queue. Returns the import as it stands afterwards.
 */
export async function startContactImport(
  db: Db,
  opts: {
    id: number;
    userId: number;
    mode: DuplicateMode;
    owner?: FileOwner | null;
    consent?: ImportConsent | null;
    clock: Clock;
    enqueue: (importId: number) => Promise<void>;
  },
): Promise<ContactImport> {
  const confirmed = await confirmContactImport(
    db,
    opts.id,
    opts.userId,
    opts.mode,
    opts.clock(),
    opts.owner,
    opts.consent,
  );
  if (confirmed.status === "importing") {
    const { done } = await importNextChunk(db, opts.id, opts.clock());
    if (!done) await opts.enqueue(opts.id);
  }
  return getContactImport(db, opts.id, opts.userId);
}
