import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { PROFILE_NOT_FOUND } from "~/alerts/alert-schema";
import { deleteProfile, getProfile, updateProfile } from "~/alerts/manage-alert-settings.server";
import { requireApiUser } from "~/auth/guard.server";
import { changeRecord, getRecord, type RecordEndpoint } from "~/lib/record-route.server";

/** PUT takes a partial (e.g. `{ "isActive": false }`), merged and validated whole. */
const PROFILE: RecordEndpoint = {
  notFound: PROFILE_NOT_FOUND,
  get: ({ context }, id) => getProfile(context.db, id),
  update: ({ context }, id, body) => updateProfile(context.db, id, body, context.clock()),
  remove: ({ context }, id) => deleteProfile(context.db, id),
};

/** GET /api/alert-profiles/:id. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return getRecord(args, PROFILE);
}

/** PUT /api/alert-profiles/:id → 200; DELETE → 204. */
export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args);
  return changeRecord(args, PROFILE);
}
