import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { requireUser } from "~/auth/guard.server";
import { PagePlaceholder } from "~/components/page-placeholder";

export const meta: MetaFunction = () => [{ title: "Campaign Sequences — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  return null;
}

export default function Page() {
  return <PagePlaceholder title="Campaign Sequences" summary="Multi-step SMS and email sequences with timed steps." />;
}
