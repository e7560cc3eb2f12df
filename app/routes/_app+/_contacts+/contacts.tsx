import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Outlet, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { Download, Plus, Send, Upload, Users } from "lucide-react";
import { requireUser } from "~/http/guard.server";
import { z } from "zod";
import { loadContactsPage } from "~/contacts/load-contacts-page.server";
import { ownerOptions } from "~/contacts/owner-card";
import { setContactOwner } from "~/contacts/set-contact-owner.server";
import { useFailureToast } from "~/components/toaster";
import { formAction } from "~/http/form-action.server";
import { setOwnerForm } from "~/http/owner-form";
import { redirectWithToast } from "~/http/toast.server";
import { clientIp } from "~/lib/request.server";
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
  Th,
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
  // "me", "none" or a user id (decision 044).
  owner: z.string().max(20).optional().catch(undefined),
});

export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  const page = await loadContactsPage(args.context.db, listQuery.parse(searchParamsOf(args.request)), me.id);
  return { ...page, me: { id: me.id, superuser: me.role === "superuser" } };
}

/** Bulk "Set owner" on the ticked rows (decision 044: a standard user may only choose themselves or nobody). */
export async function action(args: ActionFunctionArgs) {
  return formAction(args, { schema: setOwnerForm, title: "Owner not changed" }, async (input, { user }) => {
    const { changed, unchanged } = await setContactOwner(
      args.context.db,
      input,
      { userId: user.id, ipAddress: clientIp(args.request), role: user.role },
      args.context.clock(),
    );
    const search = new URL(args.request.url).search;
    return redirectWithToast(args.context, `/contacts${search}`, {
      title: `Owner set on ${changed.toLocaleString("en-US")} ${changed === 1 ? "contact" : "contacts"}`,
      description: unchanged ? `${unchanged.toLocaleString("en-US")} left as they were` : undefined,
    });
  });
}

export default function Contacts() {
  const { q, owner, owners, me, contacts, total, nextCursor, prevCursor } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const failure = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  useFailureToast(
    failure,
    failure && !failure.ok ? { title: failure.title ?? "Owner not changed", description: failure.message } : null,
  );
  // A standard user may only take contacts or let them go; a superuser gives them to anyone active.
  const assignable = me.superuser ? owners : owners.filter((o) => o.id === me.id);

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
        <Form method="get" action="/contacts" className="flex items-center gap-2">
          {q ? <input type="hidden" name="q" value={q} /> : null}
          <Field
            as="select"
            inline
            label="Owner"
            id="owner-filter"
            name="owner"
            defaultValue={owner}
            options={[
              { value: "", label: "Anyone" },
              { value: "me", label: "My contacts" },
              { value: "none", label: "No owner" },
              ...owners.map((o) => ({ value: String(o.id), label: o.name })),
            ]}
          />
          <Button type="submit" variant="secondary">
            Filter
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
        <Form method="post" action={`/contacts${search}`} id="bulk-owner" className="space-y-3">
          <Table data-testid="contacts-table">
            <THead actions>
              {["Name", "Phone", "Email", "Company", "Location"].map((c) => (
                <Th key={c}>{c}</Th>
              ))}
              {/* The owner column gives way on a phone; the contact's own page shows it. */}
              <Th className="hidden md:table-cell">Owner</Th>
            </THead>
            <TBody>
              {contacts.map((c) => (
                <tr key={c.id} data-testid="contact-row">
                  <Td className="font-medium whitespace-nowrap">
                    {/* The bulk "Set owner" tick sits in the name cell: the name stays the row's first cell. */}
                    <input
                      type="checkbox"
                      name="contactIds"
                      value={c.id}
                      aria-label={`Select ${c.firstName} ${c.lastName}`}
                      className="mr-2 h-4 w-4 rounded border-input align-middle"
                    />
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
                  <Td className="hidden whitespace-nowrap md:table-cell" data-testid="contact-owner">
                    {c.owner ? c.owner.name : <span className="text-fg-subtle">—</span>}
                  </Td>
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
          <Card className="flex flex-wrap items-end gap-2 p-3">
            <Field
              as="select"
              label="Set owner of the ticked contacts"
              id="bulk-owner-user"
              name="ownerUserId"
              className="min-w-56"
              options={ownerOptions(assignable, me.id)}
            />
            <Button type="submit" variant="secondary" disabled={pending}>
              Set owner
            </Button>
          </Card>
        </Form>
      )}

      <Pager search={search} prev={prevCursor} next={nextCursor} />

      <Outlet />
    </section>
  );
}
