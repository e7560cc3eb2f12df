import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { methodNotAllowed } from "~/lib/api.server";
import { runSendEndpoint, sendEndpoint } from "~/lib/send-route.server";
import { manualEmailSchema, manualSmsSchema, sendManualEmailTest, sendManualSmsTest } from "~/messaging/create-test-send.server";

/** Manual tests (SPEC §7): exempt from quiet hours, never from opt-outs; 202 with what was queued. */
const ENDPOINTS = {
  /** A test SMS to any number. */
  "manual-sms": sendEndpoint(manualSmsSchema, sendManualSmsTest),
  /** A test email to any address. */
  "manual-email": sendEndpoint(manualEmailSchema, sendManualEmailTest),
};

// POST only: 401 without a session, then 405.
export const loader = async (args: LoaderFunctionArgs) => { await requireApiUser(args); return methodNotAllowed(["POST"]); };

export const action = async (args: ActionFunctionArgs) => runSendEndpoint(args, await requireApiUser(args), ENDPOINTS, "kind");
