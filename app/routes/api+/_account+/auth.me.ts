import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { publicUser, requireApiUser } from "~/http/guard.server";

export async function loader(args: LoaderFunctionArgs) {
  const user = await requireApiUser(args);
  return Response.json(publicUser(user), { headers: { "Cache-Control": "no-store" } });
}
