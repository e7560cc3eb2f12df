import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { requireUser } from "~/auth/guard.server";
import { PagePlaceholder } from "~/components/page-placeholder";

export const meta: MetaFunction = () => [{ title: "Idea Generator — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  return null;
}

export default function Page() {
  return <PagePlaceholder title="Idea Generator" summary="Chat with the AI assistant for sales ideas and message content." />;
}
