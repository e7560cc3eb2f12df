import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { requireUser } from "~/auth/guard.server";
import { PagePlaceholder } from "~/components/page-placeholder";

export const meta: MetaFunction = () => [{ title: "User Analytics — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  return null;
}

export default function Page() {
  return <PagePlaceholder title="User Analytics" summary="Users, logins and activity." />;
}
