import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { parseProfile } from "~/responders/alerts/alert-schema";
import { createProfile, listProfiles } from "~/responders/alerts/manage-alert-settings.server";
import { requireApiUser } from "~/http/guard.server";
import { collectionRoute } from "~/http/record-route.server";

const PROFILES = { list: listProfiles, parse: parseProfile, create: createProfile };

/** GET /api/alert-profiles — every alert profile, newest first (bounded); POST → 201, 400 "Missing information" without the required fields. */
export const loader = async (args: LoaderFunctionArgs) => collectionRoute(args, PROFILES, await requireApiUser(args));
export const action = async (args: ActionFunctionArgs) => collectionRoute(args, PROFILES, await requireApiUser(args));
