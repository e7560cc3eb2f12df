import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { Download, Plus, Send, Upload, Users } from "lucide-react";
import { requireUser } from "~/http/guard.server";
import { z } from "zod";
import { loadContactsPage } from "~/contacts/load-contacts-page.server";
import { searchParamsOf } from "~/http/api.server";
import { zodId } from "~/lib/ids";
import {
  Badge,
  Button,
  Card,
  EmptyState,
  Field,
  PageHeader,
  Pager,
  SearchBox,
  Table,
  TBody,
  Td,
  TextLink,
  THead,
} from "~/components/ui";

const DOWNLOAD_FORMATS = [
  { value: "json", label: "JSON" },
  { value: "csv", label: "CSV" },
  { value: "txt", label: "TXT" },
];

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

export default function Contacts() {
  const { q, contacts, total, nextCursor, prevCursor } = useLoaderData<typeof loader>();
  const { search } = useLocation();

  return (
    <section className="mx-auto max-w-7xl space-y-4">
      <PageHeader
        title="Contacts"
        description={
          <p data-testid="contact-count">
            {total !== null
              ? `${total.toLocaleString("en-US")} ${total === 1 ? "contact" : "contacts"}`
              : `Results for “${q}”`}
          </p>
        }
        actions={
          <>
            <Button to={`/contacts/quick-send${search}`} preventScrollReset variant="secondary" size="md" icon={Send}>
              Quick Upload &amp; Send
            </Button>
            <Button to={`/contacts/upload${search}`} preventScrollReset variant="secondary" icon={Upload}>
              Upload CSV
            </Button>
            <Button to={`/contacts/new${search}`} preventScrollReset icon={Plus}>
              Add Contact
            </Button>
          </>
        }
      />

      <Card className="flex flex-wrap items-center gap-3 p-3">
        <SearchBox
          id="contact-search"
          label="Search contacts"
          action="/contacts"
          value={q}
          placeholder="Search by name, phone, email or company..."
          debounceMs={300}
        />
        {/* A plain document GET: the browser saves the file (or follows the "No contacts to download" redirect). */}
        <Form method="get" action="/contacts/download" reloadDocument className="flex items-center gap-2">
          {q ? <input type="hidden" name="q" value={q} /> : null}
          <Field
            as="select"
            inline
            label="Format"
            id="download-format"
            name="format"
            defaultValue="csv"
            options={DOWNLOAD_FORMATS}
          />
          <Button type="submit" variant="secondary" icon={Download}>
            Download
          </Button>
        </Form>
      </Card>

      {contacts.length === 0 ? (
        <Card className="p-0">
          {q ? (
            <EmptyState
              data-testid="contacts-empty"
              title={`No contacts match “${q}”`}
              description="Try a different name, phone number, email or company."
            />
          ) : (
            <EmptyState
              data-testid="contacts-empty"
              icon={Users}
              title="No contacts yet"
              description="Add a contact or upload a CSV file to get started."
            />
          )}
        </Card>
      ) : (
        <Table data-testid="contacts-table">
          <THead columns={["Name", "Phone", "Email", "Company", "Location"]} actions />
          <TBody>
            {contacts.map((c) => (
              <tr key={c.id} data-testid="contact-row">
                <Td className="font-medium whitespace-nowrap">
                  <TextLink to={`/contacts/${c.id}`}>
                    {c.firstName} {c.lastName}
                  </TextLink>
                </Td>
                <Td className="whitespace-nowrap">
                  <span className="font-mono">{c.phone}</span>
                  {!c.sendable ? (
                    <span className="mt-1 block" title={c.unsendableReason ?? undefined}>
                      <Badge tone="danger">Not sendable</Badge>{" "}
                      <span className="block max-w-56 text-xs whitespace-normal text-danger-text">
                        {c.unsendableReason}
                      </span>
                    </span>
                  ) : null}
                  {c.optedOut ? <span className="mt-1 block text-xs text-fg-subtle">Opted out</span> : null}
                </Td>
                <Td>{c.email}</Td>
                <Td>{c.company}</Td>
                <Td>{c.location}</Td>
                <Td className="text-right whitespace-nowrap">
                  <TextLink
                    to={`/contacts/${c.id}/edit${search}`}
                    preventScrollReset
                    aria-label={`Edit ${c.firstName} ${c.lastName}`}
                  >
                    Edit
                  </TextLink>
                  <span className="mx-2 text-input" aria-hidden="true">
                    |
                  </span>
                  <TextLink
                    tone="danger"
                    to={`/contacts/${c.id}/delete${search}`}
                    preventScrollReset
                    aria-label={`Delete ${c.firstName} ${c.lastName}`}
                  >
                    Delete
                  </TextLink>
                </Td>
              </tr>
            ))}
          </TBody>
        </Table>
      )}

      <Pager search={search} prev={prevCursor} next={nextCursor} />

      <Outlet />
    </section>
  );
}
