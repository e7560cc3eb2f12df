import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { TextLink } from "~/components/ui";
import { requireUser } from "~/http/guard.server";

export const meta: MetaFunction = () => [{ title: "404 Page Not Found — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  throw error; // anything else belongs to the root boundary
}

export default function NotFound() {
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <h2 className="text-3xl font-bold" data-testid="not-found">
        404 Page Not Found
      </h2>
      <p className="mt-2 text-fg-muted">The page you are looking for does not exist.</p>
      <TextLink to="/" className="mt-6 inline-block underline">
        Back to the dashboard
      </TextLink>
    </section>
  );
}
