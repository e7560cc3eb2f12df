import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { PROFILE_NOT_FOUND } from "~/responders/alerts/alert-schema";
import { deleteProfile, getProfile, updateProfile } from "~/responders/alerts/manage-alert-settings.server";
import { requireApiUser } from "~/http/guard.server";
import { recordRoute } from "~/http/record-route.server";

const PROFILE = { notFound: PROFILE_NOT_FOUND, get: getProfile, update: updateProfile, remove: deleteProfile };

/** GET /api/alert-profiles/:id → 200; PUT (a partial such as `{ "isActive": false }`, merged and validated whole) → 200; DELETE → 204. */
export const loader = async (args: LoaderFunctionArgs) => recordRoute(args, PROFILE, await requireApiUser(args));
export const action = async (args: ActionFunctionArgs) => recordRoute(args, PROFILE, await requireApiUser(args));
