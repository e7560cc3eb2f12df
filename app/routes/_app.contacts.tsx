import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { requireUser } from "~/auth/guard.server";
import { PagePlaceholder } from "~/components/page-placeholder";

export const meta: MetaFunction = () => [{ title: "Contacts — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  return null;
}

export default function Page() {
  return <PagePlaceholder title="Contacts" summary="Your contact list: add, import, search, edit and download." />;
}
