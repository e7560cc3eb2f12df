import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/http/guard.server";
import { runSendEndpoint, sendEndpoint } from "~/http/send-route.server";
import {
  manualEmailSchema,
  manualSmsSchema,
  sendManualEmailTest,
  sendManualSmsTest,
} from "~/messaging/create-test-send.server";

/**
 * Manual tests (SPEC §7, capped by decision 021): only to team members, a text only inside the recipient's calling
 * hours, N per user per hour (429 past it), never exempt from opt-outs; 202 with what was queued.
 */
const ENDPOINTS = {
  /** A test SMS to a team member's number (400 otherwise). */
  "manual-sms": sendEndpoint(manualSmsSchema, sendManualSmsTest),
  /** A test email to a team member's sign-in address (400 otherwise). */
  "manual-email": sendEndpoint(manualEmailSchema, sendManualEmailTest),
};

// POST only: 401 without a session, then 405 for GET.
export const loader = async (args: LoaderFunctionArgs) => runSendEndpoint(args, await requireApiUser(args), ENDPOINTS);
export const action = async (args: ActionFunctionArgs) => runSendEndpoint(args, await requireApiUser(args), ENDPOINTS);
