import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/http/guard.server";
import { collectionRoute } from "~/http/record-route.server";
import { createResponder } from "~/responders/create-responder.server";
import { listResponders } from "~/responders/list-responders.server";
import { parseResponder } from "~/responders/responder-schema";

const RESPONDERS = { list: listResponders, parse: parseResponder, create: createResponder };

/** GET /api/auto-responders — every responder, newest first (bounded); POST the full responder (SPEC §3, defaults fill the rest) → 201, 400 with the SPEC's message. */
export const loader = async (args: LoaderFunctionArgs) => collectionRoute(args, RESPONDERS, await requireApiUser(args));
export const action = async (args: ActionFunctionArgs) => collectionRoute(args, RESPONDERS, await requireApiUser(args));
