import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { apiKeyOf, requireApiUser } from "~/http/guard.server";
import { apiRoute } from "~/http/http.server";
import { idempotencyKey, methodNotAllowed, parseInput, searchParamsOf } from "~/http/api.server";
import { MAX_LEADS_BODY_BYTES, bodyTooLarge, readBodyLimited } from "~/http/read-body.server";
import { ingestLeads } from "~/contacts/ingest-leads.server";
import { leadsFromBody } from "~/contacts/lead-fields";
import { sha256Hex } from "~/lib/crypto.server";
import { clientIp } from "~/lib/request.server";
import { onLeadCreated } from "~/wiring/lead-hooks.server";

const query = z.object({
  onDuplicate: z.enum(["update", "skip"], { message: "onDuplicate must be update or skip" }).default("skip"),
  source: z.string().trim().min(1).max(100, "source must be at most 100 characters").optional(),
});

export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/v1/leads (an API key with the `leads` scope, decision 035): one lead or up to 100 (JSON object, array or
 * `{ leads }`, or one form-encoded lead) → 201 all created / 200 some existing, with a per-lead report and contact
 * ids; 400 unreadable, 413 too large, 415 another type, 422 an invalid lead (nothing stored). `Idempotency-Key`:
 * the same key again (same API key) answers the first response and stores nothing.
 */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args); // a key needs the `leads` scope (scopeFor)
  const { request, context } = args;
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return apiRoute(async () => {
    const key = await apiKeyOf(args);
    const q = parseInput(query, searchParamsOf(request));
    const body = await readBodyLimited(request, MAX_LEADS_BODY_BYTES, bodyTooLarge(MAX_LEADS_BODY_BYTES));
    const leads = leadsFromBody(request.headers.get("Content-Type"), body);
    const idem = idempotencyKey(request);
    const domain = context.domain();
    const result = await ingestLeads(
      domain.db,
      {
        leads,
        onDuplicate: q.onDuplicate,
        defaultSource: q.source ?? key?.name ?? "api",
        apiKeyId: key?.id ?? null,
        userId: user.id,
        requestIp: clientIp(request),
        idempotency: idem ? { key: idem, requestHash: await sha256Hex(new TextDecoder().decode(body)) } : null,
        now: domain.now,
      },
      onLeadCreated(domain),
    );
    const headers = new Headers({ "Cache-Control": "no-store" });
    if (result.replayed) headers.set("Idempotent-Replayed", "true");
    return Response.json(result.body, { status: result.status, headers });
  });
}
