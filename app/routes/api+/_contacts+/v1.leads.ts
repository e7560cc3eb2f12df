import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { apiKeyOf } from "~/http/guard.server";
import { idempotencyKey } from "~/http/api.server";
import { ingestLeadsOp } from "~/http/api-v1/operations";
import { served, v1Route } from "~/http/api-v1/v1-route.server";
import { MAX_LEADS_BODY_BYTES, bodyTooLarge, readBodyLimited } from "~/http/read-body.server";
import { ingestLeads } from "~/contacts/ingest-leads.server";
import { leadsFromBody } from "~/contacts/lead-fields";
import { sha256Hex } from "~/lib/crypto.server";
import { clientIp } from "~/lib/request.server";
import { onLeadCreated } from "~/wiring/lead-hooks.server";

/**
 * POST /api/v1/leads (an API key with the `leads` scope, decision 035; declared in app/http/api-v1/operations.ts,
 * `rawBody`): one lead or up to 100 (JSON object, array or `{ leads }`, or one form-encoded lead) → 201 all created
 * / 200 some existing, with a per-lead report and contact ids; 400 unreadable, 413 too large, 415 another type, 422
 * an invalid lead (nothing stored). `Idempotency-Key`: the same key again (same API key) answers the first response
 * and stores nothing.
 */
const OPS = [
  served(ingestLeadsOp, async ({ query }, { args, user }) => {
    const { request, context } = args;
    const key = await apiKeyOf(args);
    const body = await readBodyLimited(request, MAX_LEADS_BODY_BYTES, bodyTooLarge(MAX_LEADS_BODY_BYTES));
    const leads = leadsFromBody(request.headers.get("Content-Type"), body);
    const idem = idempotencyKey(request);
    const domain = context.domain();
    const result = await ingestLeads(
      domain.db,
      {
        leads,
        onDuplicate: query.onDuplicate,
        defaultSource: query.source ?? key?.name ?? "api",
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
  }),
];

// v1Route guards first (requireApiUser with the `leads` scope).
export function loader(args: LoaderFunctionArgs) {
  return v1Route(args as ActionFunctionArgs, OPS);
}
export function action(args: ActionFunctionArgs) {
  return v1Route(args, OPS);
}
