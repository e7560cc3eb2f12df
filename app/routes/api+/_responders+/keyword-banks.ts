import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { parseBank } from "~/responders/alerts/alert-schema";
import { createBank, listBanks, publicBank } from "~/responders/alerts/manage-alert-settings.server";
import { requireApiUser } from "~/http/guard.server";
import { collectionRoute } from "~/http/record-route.server";

const BANKS = { list: listBanks, parse: parseBank, create: createBank, present: publicBank };

/** GET /api/keyword-banks — every keyword bank, newest first (bounded); POST → 201, 400 "Missing information" without the required fields. */
export const loader = async (args: LoaderFunctionArgs) => collectionRoute(args, BANKS, await requireApiUser(args));
export const action = async (args: ActionFunctionArgs) => collectionRoute(args, BANKS, await requireApiUser(args));
