import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { requireUser } from "~/auth/guard.server";
import { clientIp } from "~/lib/request.server";
import { redirectWithToast } from "~/toast/toast.server";
import { ContactError } from "./contact-row.server";
import { contactSchema, REQUIRED_CONTACT_FIELDS, REQUIRED_FIELDS_MISSING } from "./contact-schema";
import type { Db } from "~/db/client.server";
import { createContact, deleteContact, getContact, updateContact } from "./manage-contacts.server";

export type Failure = { title: string; description: string };

// SPEC §8: a failure toast per action, followed by a retry sentence when the cause is unexpected.
const FAILED = { create: "Failed to create contact", update: "Failed to update contact", delete: "Failed to delete contact" } as const;
const RETRY = "Please try again.";
const DONE = { create: "Contact created", update: "Contact updated", delete: "Contact deleted" } as const;

/** The list's own search params (query and page), so closing a dialog or finishing an action returns to the same view. */
export function listSearch(request: Request): string {
  const from = new URL(request.url).searchParams;
  const keep = new URLSearchParams();
  for (const key of ["q", "after", "before"]) {
    const v = from.get(key);
    if (v) keep.set(key, v);
  }
  const s = keep.toString();
  return s ? `?${s}` : "";
}

/** Parses a route param as a positive id; anything else is a 404 like an unknown id. */
export function contactIdParam(raw: string | undefined): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Response("Contact not found", { status: 404, statusText: "Not Found" });
  return id;
}

/** The add and edit dialogs' action: validate (zod + conform), write, then back to the list with a toast. */
export async function submitContactForm(args: ActionFunctionArgs, op: { kind: "create" } | { kind: "update"; id: number }) {
  const user = await requireUser(args);
  const { request, context } = args;
  const submission = parseWithZod(await request.formData(), { schema: contactSchema });
  if (submission.status !== "success") {
    const missing = REQUIRED_CONTACT_FIELDS.some((f) => submission.error?.[f]?.some((m) => /required/.test(m)));
    return data(
      {
        result: submission.reply(missing ? { formErrors: [REQUIRED_FIELDS_MISSING.description] } : undefined),
        failure: missing ? ({ ...REQUIRED_FIELDS_MISSING } as Failure) : null,
      },
      { status: 400 },
    );
  }
  try {
    if (op.kind === "create") {
      await createContact(context.db, submission.value, { userId: user.id, ipAddress: clientIp(request) }, context.clock());
    } else {
      await updateContact(context.db, op.id, submission.value, context.clock());
    }
  } catch (err) {
    const known = err instanceof ContactError;
    if (!known) console.error(`contact ${op.kind} failed`, err);
    // SPEC §8: the toast names the failure and ends with a retry sentence; the form keeps the specific reason.
    const description = known ? `${err.message.replace(/\.$/, "")}. ${RETRY}` : RETRY;
    return data(
      { result: submission.reply({ formErrors: [known ? err.message : `${FAILED[op.kind]}. ${RETRY}`] }), failure: { title: FAILED[op.kind], description } as Failure },
      { status: known ? err.status : 500 },
    );
  }
  return redirectWithToast(context, `/contacts${listSearch(request)}`, { title: DONE[op.kind] });
}

/** The delete confirmation's action. */
export async function submitContactDelete(args: ActionFunctionArgs, id: number) {
  await requireUser(args);
  const { request, context } = args;
  try {
    await deleteContact(context.db, id);
  } catch (err) {
    const known = err instanceof ContactError;
    if (!known) console.error("contact delete failed", err);
    return data(
      { failure: { title: FAILED.delete, description: known ? err.message : RETRY } as Failure },
      { status: known ? err.status : 500 },
    );
  }
  return redirectWithToast(context, `/contacts${listSearch(request)}`, { title: DONE.delete });
}

/** A contact for a dialog's loader; an unknown id is a 404 the route's ErrorBoundary shows inside the dialog. */
export async function loadContact(db: Db, id: number) {
  try {
    return await getContact(db, id);
  } catch (err) {
    if (err instanceof ContactError && err.status === 404) throw new Response(err.message, { status: 404, statusText: "Not Found" });
    throw err;
  }
}
