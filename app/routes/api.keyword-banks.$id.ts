import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { BANK_NOT_FOUND } from "~/alerts/alert-schema";
import { deleteBank, getBank, publicBank, updateBank } from "~/alerts/manage-alert-settings.server";
import { requireApiUser } from "~/auth/guard.server";
import { changeRecord, getRecord, type RecordEndpoint } from "~/lib/record-route.server";

/** PUT takes a partial (e.g. `{ "isActive": false }`), merged and validated whole. */
const BANK: RecordEndpoint = {
  notFound: BANK_NOT_FOUND,
  get: async ({ context }, id) => publicBank(await getBank(context.db, id)),
  update: async ({ context }, id, body) => publicBank(await updateBank(context.db, id, body, context.clock())),
  remove: ({ context }, id) => deleteBank(context.db, id),
};

/** GET /api/keyword-banks/:id. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return getRecord(args, BANK);
}

/** PUT /api/keyword-banks/:id → 200; DELETE → 204. */
export async function action(args: ActionFunctionArgs) {
  await requireApiUser(args);
  return changeRecord(args, BANK);
}
