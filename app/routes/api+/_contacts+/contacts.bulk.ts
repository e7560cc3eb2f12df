import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { requireApiUser } from "~/http/guard.server";
import { bulkItems, bulkUpsertContacts } from "~/contacts/bulk-contacts.server";
import { viewerOf } from "~/contacts/contact-scope.server";
import { DUPLICATE_MODES } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { methodNotAllowed, readJson } from "~/http/api.server";
import { MAX_BULK_JSON_BYTES } from "~/http/read-body.server";
import { apiRoute } from "~/http/http.server";
import { clientIp } from "~/lib/request.server";

// POST only: 401 without a session, then 405.
export const loader = async (args: LoaderFunctionArgs) => {
  await requireApiUser(args);
  return methodNotAllowed(["POST"]);
};

const bulkMode = z.enum(DUPLICATE_MODES);

/**
 * POST /api/contacts/bulk — a bare array or `{ contacts: [...] }` (SPEC §7), with `onDuplicate` = skip | update
 * as a query parameter or body field (default skip). Invalid contacts are reported, not fatal. A standard user's
 * update never merges into another rep's contact: it counts as a duplicate (decision 048).
 */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  const { request, context } = args;
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return apiRoute(async () => {
    const body = await readJson(request, { maxBytes: MAX_BULK_JSON_BYTES });
    const items = bulkItems(body);
    const rawMode =
      new URL(request.url).searchParams.get("onDuplicate") ??
      (Array.isArray(body) ? undefined : (body as { onDuplicate?: unknown }).onDuplicate);
    const mode = rawMode === undefined || rawMode === null ? "skip" : bulkMode.safeParse(rawMode).data;
    if (!mode) throw new AppError("validation", 'onDuplicate must be "skip" or "update"');
    const result = await bulkUpsertContacts(context.db, items, {
      mode,
      viewer: viewerOf(user),
      ipAddress: clientIp(request),
      now: context.clock(),
    });
    return Response.json(result);
  });
}
