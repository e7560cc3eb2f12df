import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { changeRecord, getRecord, type RecordEndpoint } from "~/lib/record-route.server";
import { deleteResponder, getResponder, updateResponder } from "~/responders/manage-responders.server";
import { RESPONDER_NOT_FOUND } from "~/responders/responder-schema";

/** PUT takes a partial (e.g. `{ "isActive": false }`), merged and validated whole. */
const RESPONDER: RecordEndpoint = {
  notFound: RESPONDER_NOT_FOUND,
  get: ({ context }, id) => getResponder(context.db, id),
  update: ({ context }, id, body) => updateResponder(context.db, id, body, context.clock()),
  remove: ({ context }, id) => deleteResponder(context.db, id),
};

/** GET /api/auto-responders/:id. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return getRecord(args, RESPONDER);
}

/** PUT /api/auto-responders/:id → 200; DELETE → 204. */
export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args);
  return changeRecord(args, RESPONDER);
}
