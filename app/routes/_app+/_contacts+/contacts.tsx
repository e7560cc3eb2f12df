import { MAX_TAG_LENGTH } from "~/contacts/contact-tag";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { contactEventHooks } from "~/wiring/contact-event-hooks.server";
import { Form, Outlet, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { Filter, Download, Plus, Send, SquareKanban, Upload, Users } from "lucide-react";
import { requireUser } from "~/http/guard.server";
import { z } from "zod";
import { loadContactsPage } from "~/contacts/load-contacts-page.server";
import { ownerOptions } from "~/contacts/owner-card";
import { setContactOwner } from "~/contacts/set-contact-owner.server";
import { setContactStage } from "~/contacts/set-contact-stage.server";
import { intentError, withDefaults } from "~/http/form-schema";
import { useFailureToast } from "~/components/toaster";
import { formAction } from "~/http/form-action.server";
import { setOwnerForm, stageField } from "~/http/owner-form";
import { redirectWithToast } from "~/http/toast.server";
import { clientIp } from "~/lib/request.server";
import { searchParamsOf } from "~/http/api.server";
import { zodId } from "~/lib/ids";
import { viewerOf } from "~/contacts/contact-scope.server";
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
import { formatCount } from "~/lib/format-count";

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
  // A pipeline stage's key (decision 053).
  stage: z.string().max(40).optional().catch(undefined),
  // A tag (decision 073), bounded here, checked and normalised by the page's loader.
  tag: z.string().max(200).optional().catch(undefined),
});

export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  const page = await loadContactsPage(args.context.db, listQuery.parse(searchParamsOf(args.request)), viewerOf(me));
  return { ...page, me: { id: me.id, superuser: me.role === "superuser" } };
}

// The list's bulk form: the ticked rows get an owner (decision 044: a standard user may hand their own or unowned
// contacts to anyone) or a stage (decision 053). The button pressed names the intent; no intent is "set owner".
const bulkForm = withDefaults(
  { intent: "set-owner" },
  z.discriminatedUnion(
    "intent",
    [
      setOwnerForm.extend({ intent: z.literal("set-owner") }),
      z.object({
        intent: z.literal("set-stage"),
        contactIds: setOwnerForm.shape.contactIds,
        stage: stageField,
      }),
    ],
    intentError(),
  ),
);

export async function action(args: ActionFunctionArgs) {
  return formAction(args, { schema: bulkForm, title: "Contacts not changed" }, async (input, { user }) => {
    const now = args.context.clock();
    const ipAddress = clientIp(args.request);
    const search = new URL(args.request.url).search;
    const many = (n: number) => `${formatCount(n)} ${n === 1 ? "contact" : "contacts"}`;
    if (input.intent === "set-stage") {
      const { stage, changed, unchanged } = await setContactStage(
        args.context.db,
        input,
        { ...viewerOf(user), ipAddress },
        now,
        contactEventHooks(args.context.queue),
      );
      return redirectWithToast(args.context, `/contacts${search}`, {
        title: `${many(changed)} moved to ${stage.label}`,
        description: unchanged ? `${formatCount(unchanged)} left as they were` : undefined,
      });
    }
    const { changed, unchanged } = await setContactOwner(
      args.context.db,
      input,
      { userId: user.id, ipAddress, role: user.role },
      now,
    );
    return redirectWithToast(args.context, `/contacts${search}`, {
      title: `Owner set on ${many(changed)}`,
      description: unchanged ? `${formatCount(unchanged)} left as they were` : undefined,
    });
  });
}

export default function Contacts() {
  const { q, owner, owners, seesAll, me, contacts, total, nextCursor, prevCursor, stage, stages, tag } =
    useLoaderData<typeof loader>();
  const { search } = useLocation();
  const failure = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  useFailureToast(
    failure,
    failure && !failure.ok ? { title: failure.title ?? "Contacts not changed", description: failure.message } : null,
  );
  // A standard user may only take contacts or let them go; a superuser gives them to anyone active.

  return (
    <section className="mx-auto max-w-7xl space-y-4">
      <PageHeader
        title="Contacts"
        description={
          <p data-testid="contact-count">
            {total !== null
              ? `${formatCount(total)} ${total === 1 ? "contact" : "contacts"}`
              : q
                ? `Results for “${q}”`
                : stage
                  ? `In ${stages.find((s) => s.key === stage)?.label ?? stage}`
                  : seesAll
                    ? "Filtered by owner"
                    : "Your contacts and those with no owner"}
          </p>
        }
        actions={
          <>
            <Button to="/contacts/pipeline" variant="secondary" icon={SquareKanban}>
              Pipeline
            </Button>
            <Button to="/contacts/segments" variant="secondary" icon={Filter}>
              Segments
            </Button>
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
        <Form method="get" action="/contacts" className="flex flex-wrap items-center gap-2">
          {q ? <input type="hidden" name="q" value={q} /> : null}
          <Field
            as="select"
            inline
            label="Owner"
            id="owner-filter"
            name="owner"
            defaultValue={owner}
            options={[
              { value: "", label: seesAll ? "Anyone" : "Mine and no owner" },
              { value: "me", label: "My contacts" },
              { value: "none", label: "No owner" },
              // Another user's contacts are outside a standard user's scope (decision 048): not offered.
              ...(seesAll ? owners.map((o) => ({ value: String(o.id), label: o.name })) : []),
            ]}
          />
          <Field
            as="select"
            inline
            label="Stage"
            id="stage-filter"
            name="stage"
            defaultValue={stage}
            options={[{ value: "", label: "Any stage" }, ...stages.map((s) => ({ value: s.key, label: s.label }))]}
          />
          <Field inline label="Tag" id="tag-filter" name="tag" defaultValue={tag} maxLength={MAX_TAG_LENGTH} />
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
          ) : tag ? (
            <EmptyState
              data-testid="contacts-empty"
              title={`No contacts with the tag “${tag}”`}
              description="Tags are added on a contact's page."
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
              {/* The owner and stage columns give way on a phone; the contact's own page shows them. */}
              <Th className="hidden md:table-cell">Owner</Th>
              <Th className="hidden md:table-cell">Stage</Th>
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
                  <Td className="hidden whitespace-nowrap md:table-cell" data-testid="contact-stage">
                    {c.stage.label}
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
              options={ownerOptions(owners, me.id)}
            />
            <Button type="submit" name="intent" value="set-owner" variant="secondary" disabled={pending}>
              Set owner
            </Button>
          </Card>
          <Card className="flex flex-wrap items-end gap-2 p-3">
            <Field
              as="select"
              label="Set stage of the ticked contacts"
              id="bulk-stage"
              name="stage"
              className="min-w-56"
              options={stages.map((s) => ({ value: s.key, label: s.label }))}
            />
            <Button type="submit" name="intent" value="set-stage" variant="secondary" disabled={pending}>
              Set stage
            </Button>
          </Card>
        </Form>
      )}

      <Pager search={search} prev={prevCursor} next={nextCursor} />

      <Outlet />
    </section>
  );
}
