import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { requireApiUser } from "~/http/guard.server";
import { parseContact } from "~/contacts/contact-schema";
import { listContacts, MAX_PAGE_SIZE } from "~/contacts/list-contacts.server";
import { ownerOfNewContact, viewerOf } from "~/contacts/contact-scope.server";
import { createContact } from "~/contacts/create-contact.server";
import { publicContact } from "~/contacts/public-contact.server";
import { AppError } from "~/lib/app-error";
import { methodNotAllowed, pageResponse, readJson, searchParamsOf } from "~/http/api.server";
import { apiRoute } from "~/http/http.server";
import { zodId } from "~/lib/ids";
import { clientIp } from "~/lib/request.server";

const API_PAGE = 100;
const listQuery = z.object({
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int("must be an integer").min(1, "must be at least 1").optional(),
  after: zodId().optional(),
  before: zodId().optional(),
});

/** GET /api/contacts?q&limit&after&before — one page, newest first; `X-Next-Cursor` when there is more. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireApiUser(args);
  return apiRoute(async () => {
    const parsed = listQuery.safeParse(searchParamsOf(args.request));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError("validation", `${issue.path.join(".")}: ${issue.message}`);
    }
    const { q, after, before } = parsed.data;
    const limit = Math.min(parsed.data.limit ?? API_PAGE, MAX_PAGE_SIZE);
    const page = await listContacts(args.context.db, { q, after, before, limit, viewer: viewerOf(user) });
    return pageResponse(page.contacts.map(publicContact), page);
  });
}

/** POST /api/contacts → 201 with the contact (phone normalised); 400 `{message}`; 409 for a phone already saved. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  const { request, context } = args;
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  return apiRoute(async () => {
    const input = parseContact(await readJson(request));
    const created = await createContact(
      context.db,
      input,
      { userId: user.id, ipAddress: clientIp(request) },
      context.clock(),
      ownerOfNewContact(viewerOf(user)),
    );
    return Response.json(publicContact(created), { status: 201 });
  });
}
