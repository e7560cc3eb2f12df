import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { requireApiUser } from "~/auth/guard.server";
import { DUPLICATE_MODES } from "~/db/schema";
import { methodNotAllowed, readJson } from "~/lib/api.server";
import { MAX_BULK_JSON_BYTES } from "~/lib/read-body.server";
import { apiError, clientIp } from "~/lib/request.server";
import { bulkItems, bulkUpsertContacts } from "./bulk-contacts.server";
import { ContactError } from "./contact-row.server";
import { contactErrorMessage, contactSchema } from "./contact-schema";
import { listContacts, MAX_PAGE_SIZE } from "./list-contacts.server";
import { CONTACT_NOT_FOUND, createContact, deleteContact, getContact, publicContact, updateContact } from "./manage-contacts.server";

const API_PAGE = 100;
const cursor = z.coerce.number().int().positive("must be a positive integer").optional();
const listQuery = z.object({
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int("must be an integer").min(1, "must be at least 1").optional(),
  after: cursor,
  before: cursor,
});

/** ContactError → `{ message }` with its status; anything else propagates (500). */
async function answer(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ContactError) return apiError(err.status, err.message);
    throw err;
  }
}

function validContact(body: unknown) {
  const parsed = contactSchema.safeParse(body);
  if (!parsed.success) throw new ContactError(400, contactErrorMessage(parsed.error));
  return parsed.data;
}

/** GET /api/contacts?q&limit&after&before — one page, newest first; `X-Next-Cursor` when there is more. */
export async function listContactsApi(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  const parsed = listQuery.safeParse(Object.fromEntries(new URL(args.request.url).searchParams));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return apiError(400, `${issue.path.join(".")}: ${issue.message}`);
  }
  const { q, after, before } = parsed.data;
  const limit = Math.min(parsed.data.limit ?? API_PAGE, MAX_PAGE_SIZE);
  const page = await listContacts(args.context.db, { q, after, before, limit });
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (page.nextCursor !== null) headers.set("X-Next-Cursor", String(page.nextCursor));
  if (page.prevCursor !== null) headers.set("X-Prev-Cursor", String(page.prevCursor));
  return Response.json(page.contacts.map(publicContact), { headers });
}

/** POST /api/contacts → 201 with the contact (phone normalised); 400 `{message}`; 409 for a phone already saved. */
export async function createContactApi(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  if (args.request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  return answer(async () => {
    const input = validContact(await readJson(args.request));
    const created = await createContact(args.context.db, input, { userId: user.id, ipAddress: clientIp(args.request) }, args.context.clock());
    return Response.json(publicContact(created), { status: 201 });
  });
}

function apiContactId(raw: string | undefined): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) throw new ContactError(404, CONTACT_NOT_FOUND);
  return id;
}

/** GET /api/contacts/:id. */
export async function getContactApi(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return answer(async () => Response.json(publicContact(await getContact(args.context.db, apiContactId(args.params.id)))));
}

/**
 * PUT /api/contacts/:id → 200 with the contact. Fields left out of the body keep their values (the spec's client
 * sends the whole contact; a partial body is accepted too); a field sent empty is validated as empty.
 */
export async function changeContactApi(args: ActionFunctionArgs) {
  await requireApiUser(args);
  const { request, context } = args;
  return answer(async () => {
    const id = apiContactId(args.params.id);
    if (request.method === "DELETE") {
      await deleteContact(context.db, id);
      return new Response(null, { status: 204 });
    }
    if (request.method !== "PUT") return methodNotAllowed(["GET", "PUT", "DELETE"]);
    const body = await readJson(request);
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new ContactError(400, "Request body must be a contact object");
    const current = await getContact(context.db, id);
    const { firstName, lastName, phone, email, company, address, city, state, zipCode } = current;
    const input = validContact({ firstName, lastName, phone, email, company, address, city, state, zipCode, ...body });
    return Response.json(publicContact(await updateContact(context.db, id, input, context.clock())));
  });
}

const bulkMode = z.enum(DUPLICATE_MODES);

/**
 * POST /api/contacts/bulk — a bare array or `{ contacts: [...] }` (SPEC §7), with `onDuplicate` = skip | update
 * as a query parameter or body field (default skip). Invalid contacts are reported, not fatal.
 */
export async function bulkContactsApi(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  const { request, context } = args;
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return answer(async () => {
    const body = await readJson(request, { maxBytes: MAX_BULK_JSON_BYTES });
    const items = bulkItems(body);
    const rawMode = new URL(request.url).searchParams.get("onDuplicate") ?? (Array.isArray(body) ? undefined : (body as { onDuplicate?: unknown }).onDuplicate);
    const mode = rawMode === undefined || rawMode === null ? "skip" : bulkMode.safeParse(rawMode).data;
    if (!mode) throw new ContactError(400, 'onDuplicate must be "skip" or "update"');
    const result = await bulkUpsertContacts(context.db, items, { mode, userId: user.id, ipAddress: clientIp(request), now: context.clock() });
    return Response.json(result);
  });
}
