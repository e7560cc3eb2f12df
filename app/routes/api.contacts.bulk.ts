import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { bulkContactsApi } from "~/contacts/contacts-api.server";
import { methodNotAllowed } from "~/lib/api.server";

export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return methodNotAllowed(["POST"]);
}
export const action = bulkContactsApi;
