import { recordActivity } from "~/activity/log-activity.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { CONTACT_NOT_FOUND, deleteContact, getContact, publicContact, updateContactFields } from "~/contacts/manage-contacts.server";
import { AppError } from "~/lib/app-error";
import { methodNotAllowed, readJson } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";
import { requireId } from "~/lib/ids";

/** GET /api/contacts/:id. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return apiRoute(async () => Response.json(publicContact(await getContact(args.context.db, requireId(args.params.id, CONTACT_NOT_FOUND)))));
}

/** PUT /api/contacts/:id → 200 with the contact (fields left out keep their values); DELETE → 204. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  const { request, context } = args;
  return apiRoute(async () => {
    const id = requireId(args.params.id, CONTACT_NOT_FOUND);
    if (request.method === "DELETE") {
      await deleteContact(context.db, id);
      await recordActivity(args, user.id, "delete_contact", { contactId: id });
      return new Response(null, { status: 204 });
    }
    if (request.method !== "PUT") return methodNotAllowed(["GET", "PUT", "DELETE"]);
    const body = await readJson(request);
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new AppError("validation", "Request body must be a contact object");
    const updated = await updateContactFields(context.db, id, body, context.clock());
    await recordActivity(args, user.id, "update_contact", { contactId: id, fields: Object.keys(body).slice(0, 10) });
    return Response.json(publicContact(updated));
  });
}
