import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { getOptionalUser, publicUser } from "~/http/guard.server";
import { ServiceWorkerRegistration } from "~/components/service-worker";
import { ToastProvider } from "~/components/toaster";
import { useNonce } from "~/lib/nonce";
import { takeToast } from "~/http/toast.server";
import stylesheet from "~/tailwind.css";
import { THEME_COLOR } from "~/push/web-manifest";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  // The installable app (decision 049).
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/icon-192.png" },
];

export const meta: MetaFunction = () => [
  { title: "Helio — Connect with clarity" },
  { name: "description", content: "Solar Sales Communication Platform" },
  { name: "theme-color", content: THEME_COLOR },
];

export async function loader(args: LoaderFunctionArgs) {
  const user = await getOptionalUser(args);
  const { toast, headers } = await takeToast(args.request, args.context);
  return data({ user: user ? publicUser(user) : null, toast }, { headers });
}

export function Document({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="h-full bg-canvas text-fg antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  return (
    <Document>
      <ToastProvider initial={toast}>
        <Outlet />
      </ToastProvider>
      <ServiceWorkerRegistration />
    </Document>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <Document>
      <main className="flex min-h-full flex-col items-center justify-center p-8 text-center">
        <h1 className="text-2xl font-bold">{notFound ? "404 Page Not Found" : "Something went wrong"}</h1>
        <p className="mt-2 text-fg-muted">
          {notFound
            ? "The page you are looking for does not exist."
            : isRouteErrorResponse(error)
              ? `${error.status}: ${error.statusText}`
              : "An unexpected error occurred."}
        </p>
        <a href="/" className="mt-6 text-primary-text underline">
          Back to the dashboard
        </a>
      </main>
    </Document>
  );
}
