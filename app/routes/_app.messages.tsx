import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { requireUser } from "~/auth/guard.server";
import { PagePlaceholder } from "~/components/page-placeholder";

export const meta: MetaFunction = () => [{ title: "Message Center — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  return null;
}

export default function Page() {
  return <PagePlaceholder title="Message Center" summary="Every SMS and email, incoming and outgoing, with search and status." />;
}
