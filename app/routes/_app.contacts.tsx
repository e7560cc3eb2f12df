import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, Outlet, useLoaderData, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { requireUser } from "~/auth/guard.server";
import { z } from "zod";
import { loadContactsPage } from "~/contacts/load-contacts-page.server";
import { searchParamsOf } from "~/lib/api.server";
import { zodId } from "~/lib/ids";

export const meta: MetaFunction = () => [{ title: "Contacts — Helio" }];

// The list's URL state (?q, ?after, ?before); anything malformed is ignored rather than an error.
const listQuery = z.object({
  q: z.string().trim().max(200).optional().catch(undefined),
  after: zodId().optional().catch(undefined),
  before: zodId().optional().catch(undefined),
});

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  return loadContactsPage(args.context.db, listQuery.parse(searchParamsOf(args.request)));
}

const button = "inline-flex items-center rounded-md px-3 py-2 text-sm font-medium";

export default function Contacts() {
  const { q, contacts, total, nextCursor, prevCursor } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  const submit = useSubmit();
  const search = location.search;
  const searching = navigation.state === "loading" && navigation.location.pathname === "/contacts" && navigation.location.search !== search;
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const searchBox = useRef<HTMLInputElement>(null);
  useEffect(() => () => clearTimeout(timer.current), []);
  // Follow ?q when it changes from elsewhere (back button, a link) without fighting the user's typing.
  useEffect(() => {
    if (searchBox.current && document.activeElement !== searchBox.current) searchBox.current.value = q;
  }, [q]);
  const qs = (extra: Record<string, string | number>) => {
    const p = new URLSearchParams(q ? { q } : {});
    for (const [k, v] of Object.entries(extra)) p.set(k, String(v));
    const s = p.toString();
    return s ? `?${s}` : "";
  };

  return (
    <section className="mx-auto max-w-7xl space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-2xl font-bold" data-testid="page-title">
            Contacts
          </h2>
          <p className="text-sm text-slate-600" data-testid="contact-count">
            {total !== null ? `${total.toLocaleString("en-US")} ${total === 1 ? "contact" : "contacts"}` : `Results for “${q}”`}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/testing" className={`${button} border border-slate-300 bg-white hover:bg-slate-50`}>
            Quick Upload &amp; Send
          </Link>
          <Link to={`/contacts/upload${search}`} preventScrollReset className={`${button} border border-slate-300 bg-white hover:bg-slate-50`}>
            Upload CSV
          </Link>
          <Link to={`/contacts/new${search}`} preventScrollReset className={`${button} bg-amber-500 font-semibold text-slate-900 hover:bg-amber-600`}>
            Add Contact
          </Link>
        </div>
      </div>

      <div className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white p-3">
        <Form method="get" action="/contacts" role="search" className="flex min-w-64 flex-1 gap-2" onSubmit={() => clearTimeout(timer.current)}>
          <label htmlFor="contact-search" className="sr-only">
            Search contacts
          </label>
          <input
            id="contact-search"
            type="search"
            name="q"
            defaultValue={q}
            ref={searchBox}
            placeholder="Search by name, phone, email or company..."
            className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-amber-500 focus:outline-none"
            onChange={(e) => {
              // With JS the list follows the typing; without JS the Search button submits the same GET.
              const form = e.currentTarget.form;
              const value = e.currentTarget.value.trim();
              clearTimeout(timer.current);
              // A pending search must not fire after the user has moved on (Enter, a link, a dialog).
              timer.current = setTimeout(() => value !== q && submit(form, { replace: true, preventScrollReset: true }), 300);
            }}
          />
          <button type="submit" className={`${button} border border-slate-300 hover:bg-slate-50`}>
            {searching ? "Searching..." : "Search"}
          </button>
        </Form>
        {/* A plain document GET: the browser saves the file (or follows the "No contacts to download" redirect). */}
        <Form method="get" action="/contacts/download" reloadDocument className="flex items-center gap-2">
          {q ? <input type="hidden" name="q" value={q} /> : null}
          <label htmlFor="download-format" className="text-sm text-slate-600">
            Format
          </label>
          <select id="download-format" name="format" defaultValue="csv" className="rounded-md border border-slate-300 px-2 py-2 text-sm">
            <option value="json">JSON</option>
            <option value="csv">CSV</option>
            <option value="txt">TXT</option>
          </select>
          <button type="submit" className={`${button} border border-slate-300 hover:bg-slate-50`}>
            Download
          </button>
        </Form>
      </div>

      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        {contacts.length === 0 ? (
          <div className="p-10 text-center" data-testid="contacts-empty">
            {q ? (
              <>
                <p className="font-medium">No contacts match “{q}”</p>
                <p className="mt-1 text-sm text-slate-500">Try a different name, phone number, email or company.</p>
              </>
            ) : (
              <>
                <p className="font-medium">No contacts yet</p>
                <p className="mt-1 text-sm text-slate-500">Add a contact or upload a CSV file to get started.</p>
              </>
            )}
          </div>
        ) : (
          <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="contacts-table">
            <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
              <tr>
                <th className="px-4 py-3">Name</th>
                <th className="px-4 py-3">Phone</th>
                <th className="px-4 py-3">Email</th>
                <th className="px-4 py-3">Company</th>
                <th className="px-4 py-3">Location</th>
                <th className="px-4 py-3 text-right">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {contacts.map((c) => (
                <tr key={c.id} data-testid="contact-row">
                  <td className="px-4 py-3 font-medium whitespace-nowrap">
                    {c.firstName} {c.lastName}
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">
                    <span className="font-mono">{c.phone}</span>
                    {!c.sendable ? (
                      <span className="mt-1 block" title={c.unsendableReason ?? undefined}>
                        <span className="rounded bg-red-100 px-1.5 py-0.5 text-xs font-medium text-red-700">Not sendable</span>{" "}
                        <span className="block max-w-56 text-xs whitespace-normal text-red-700">{c.unsendableReason}</span>
                      </span>
                    ) : null}
                    {c.optedOut ? <span className="mt-1 block text-xs text-slate-500">Opted out</span> : null}
                  </td>
                  <td className="px-4 py-3">{c.email}</td>
                  <td className="px-4 py-3">{c.company}</td>
                  <td className="px-4 py-3">{c.location}</td>
                  <td className="px-4 py-3 text-right whitespace-nowrap">
                    <Link to={`/contacts/${c.id}/edit${search}`} preventScrollReset className="text-amber-700 hover:underline" aria-label={`Edit ${c.firstName} ${c.lastName}`}>
                      Edit
                    </Link>
                    <span className="mx-2 text-slate-300" aria-hidden="true">
                      |
                    </span>
                    <Link to={`/contacts/${c.id}/delete${search}`} preventScrollReset className="text-red-700 hover:underline" aria-label={`Delete ${c.firstName} ${c.lastName}`}>
                      Delete
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>

      {prevCursor !== null || nextCursor !== null ? (
        <nav aria-label="Pagination" className="flex justify-between">
          {prevCursor !== null ? (
            <Link to={`/contacts${qs({ before: prevCursor })}`} className={`${button} border border-slate-300 bg-white hover:bg-slate-50`}>
              Previous
            </Link>
          ) : (
            <span />
          )}
          {nextCursor !== null ? (
            <Link to={`/contacts${qs({ after: nextCursor })}`} className={`${button} border border-slate-300 bg-white hover:bg-slate-50`}>
              Next
            </Link>
          ) : null}
        </nav>
      ) : null}

      <Outlet />
    </section>
  );
}
