import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/http/guard.server";
import { runSendEndpoint, sendEndpoint } from "~/http/send-route.server";
import { broadcastSchema, sendBroadcast } from "~/messaging/send-broadcast.server";
import { individualSchema, sendIndividual } from "~/messaging/send-individual.server";
import { quickSendSchema, sendQuick } from "~/messaging/send-quick.server";

/**
 * The send endpoints (SPEC §7), each POST-only and answering 202 with what was queued; an `Idempotency-Key`
 * header makes a client's retry safe. Any other /api/messages/:x is a 404.
 */
const ENDPOINTS = {
  /** Quick upload & send: one already-personalised SMS. */
  send: sendEndpoint(quickSendSchema, sendQuick),
  /** One message per selected contact, now or at `scheduledAt`. */
  "send-broadcast": sendEndpoint(broadcastSchema, sendBroadcast),
  /** One SMS or email to one contact. */
  "send-individual": sendEndpoint(individualSchema, sendIndividual),
};

// POST only: 401 without a session, then 405 for GET.
export const loader = async (args: LoaderFunctionArgs) => runSendEndpoint(args, await requireApiUser(args), ENDPOINTS);
export const action = async (args: ActionFunctionArgs) => runSendEndpoint(args, await requireApiUser(args), ENDPOINTS);
