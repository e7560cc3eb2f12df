import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { BANK_NOT_FOUND } from "~/responders/alerts/alert-schema";
import { deleteBank, getBank, publicBank, updateBank } from "~/responders/alerts/manage-alert-settings.server";
import { requireApiUser } from "~/http/guard.server";
import { recordRoute } from "~/http/record-route.server";

const BANK = { notFound: BANK_NOT_FOUND, get: getBank, update: updateBank, remove: deleteBank, present: publicBank };

/** GET /api/keyword-banks/:id → 200; PUT (a partial such as `{ "isActive": false }`, merged and validated whole) → 200; DELETE → 204. */
export const loader = async (args: LoaderFunctionArgs) => recordRoute(args, BANK, await requireApiUser(args));
export const action = async (args: ActionFunctionArgs) => recordRoute(args, BANK, await requireApiUser(args));
