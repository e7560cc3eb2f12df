import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/http/guard.server";
import { recordRoute } from "~/http/record-route.server";
import { deleteResponder } from "~/responders/delete-responder.server";
import { getResponder } from "~/responders/get-responder.server";
import { updateResponder } from "~/responders/update-responder.server";
import { RESPONDER_NOT_FOUND } from "~/responders/responder-schema";

const RECORD = { notFound: RESPONDER_NOT_FOUND, get: getResponder, update: updateResponder, remove: deleteResponder };

/** GET /api/auto-responders/:id → 200; PUT (a partial such as `{ "isActive": false }`, merged and validated whole) → 200; DELETE → 204. */
export const loader = async (args: LoaderFunctionArgs) => recordRoute(args, RECORD, await requireApiUser(args));
export const action = async (args: ActionFunctionArgs) => recordRoute(args, RECORD, await requireApiUser(args));
