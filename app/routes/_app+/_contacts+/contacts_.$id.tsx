import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { Badge, Card, PageHeader, TextLink } from "~/components/ui";
import { LocalTime } from "~/components/local-time";
import { ContactNotFound } from "~/contacts/contact-not-found";
import { CONTACT_NOT_FOUND } from "~/contacts/get-contact.server";
import { loadContactPage } from "~/conversations/load-contact-page.server";
import { parseCustomFields } from "~/contacts/custom-fields";
import { ConversationCard } from "~/conversations/conversation-view";
import { QueueActions } from "~/conversations/queue-actions";
import { REPLY_FORM_LIMIT, replyForm, replyOrReplace } from "~/http/reply-action.server";
import { formAction } from "~/http/form-action.server";
import { mentionHooks } from "~/wiring/mention-hooks.server";
import { parseId } from "~/lib/ids";
import { routeId, throwAsResponse } from "~/http/http.server";
import { PLATFORM_VARIABLES } from "~/contacts/variables";
import { OwnerCard } from "~/contacts/owner-card";
import { StageCard } from "~/contacts/stage-card";
import { TagsCard } from "~/contacts/tags-card";
import { viewerOf } from "~/contacts/contact-scope.server";
import { contactInScope } from "~/http/contact-guard.server";
import { AppointmentsCard } from "~/appointments/appointments-card";
import { contactLinkClicksFrom, contactLinkClicksQuery } from "~/messaging/list-contact-link-clicks.server";
import { contactAppointmentsFrom, selectContactAppointments } from "~/appointments/list-contact-appointments.server";
import { bookingToken } from "~/appointments/booking-token.server";
import { messagingConfig } from "~/messaging/messaging-config.server";
import { CONSENT_PURPOSE_LABEL } from "~/contacts/consent-purpose";
import { contactSavingsFrom } from "~/savings/load-contact-savings.server";
import { savingsQueries } from "~/savings/savings-data.server";
import { SavingsCard } from "~/savings/savings-card";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `${data.contact.firstName} ${data.contact.lastName}` : "Contact"} — Helio` },
];

/** Contact detail: profile, consent and opt-out state, campaigns, and the conversation with a reply box. */
export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  const { db } = args.context;
  const url = new URL(args.request.url);
  const contactId = routeId(args.params.id, CONTACT_NOT_FOUND);
  const page = await loadContactPage(
    db,
    {
      contactId,
      viewer: viewerOf(me),
      url,
      before: parseId(url.searchParams.get("before")),
      now: args.context.clock(),
    },
    // The cards' reads ride in the page's batch; their rows are used only once its scope check passed.
    [selectContactAppointments(db, contactId), contactLinkClicksQuery(db, contactId), ...savingsQueries(db)] as const,
  ).catch(throwAsResponse);
  // The thread, campaigns, templates, leads, owner picker, queue state, users and tags go to the page as read.
  const {
    contact,
    stages,
    alongside: [appointmentRows, linkClickRows, savingsSetting, stateRows],
    ...asRead
  } = page;
  const savings = contactSavingsFrom(contact, [savingsSetting, stateRows]);
  return {
    ...asRead,
    savings: { ...savings, utilityName: contact.utilityName ?? "" },
    contact: {
      id: contact.id,
      firstName: contact.firstName,
      lastName: contact.lastName,
      phone: contact.phone,
      email: contact.email,
      company: contact.company,
      address: [contact.address, contact.city, contact.state, contact.zipCode].filter(Boolean).join(", "),
      timeZone: contact.timeZone,
      sendable: contact.sendable,
      unsendableReason: contact.unsendableReason,
      optedOutAt: contact.optedOutAt?.toISOString() ?? null,
      optedOutSource: contact.optedOutSource,
      optedOutScope: contact.optedOutScope,
      emailUnsubscribedAt: contact.emailUnsubscribedAt?.toISOString() ?? null,
      consentSource: contact.consentSource,
      consentAt: contact.consentAt?.toISOString() ?? null,
      consentPurpose: contact.consentPurpose,
      stage: contact.stage,
      billReceivedAt: contact.billReceivedAt?.toISOString() ?? null,
    },
    stages: stages.map((s) => ({ key: s.key, label: s.label })),
    appointments: contactAppointmentsFrom(appointmentRows),
    linkClicks: contactLinkClicksFrom(linkClickRows),
    me: me.id,
    bookingLink: await bookingLinkFor(args.context.cloudflare.env, contact.id, args.context.clock()),
    customFields: parseCustomFields(contact.customFields),
    nonce: crypto.randomUUID(),
  };
}

/** The contact's login-free booking link (decision 058), or null without a signing secret. */
async function bookingLinkFor(env: Env, contactId: number, now: Date) {
  const { unsubscribeSecret, publicBaseUrl } = messagingConfig(env);
  return unsubscribeSecret ? `${publicBaseUrl}/book/${await bookingToken(unsubscribeSecret, contactId, now)}` : null;
}

export async function action(args: ActionFunctionArgs) {
  // The thread this page shows (read after the guard: an id that cannot exist is a 404).
  const target = () => {
    const id = routeId(args.params.id, CONTACT_NOT_FOUND);
    return { to: { contactId: id }, back: `/contacts/${id}#reply` };
  };
  return formAction(
    args,
    { schema: replyForm, before: contactInScope(args), limit: REPLY_FORM_LIMIT, hide: ["picture"] },
    (input, { user, form }) => replyOrReplace(args, target(), input, user, mentionHooks(args.context.queue), form),
  );
}

export default function ContactDetail() {
  const {
    contact,
    customFields,
    campaigns,
    thread,
    templates,
    leads,
    owner,
    queue,
    users,
    nonce,
    stages,
    tags,
    appointments,
    linkClicks,
    me,
    bookingLink,
    savings,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const optedOut = contact.optedOutAt
    ? contact.optedOutScope === "marketing"
      ? "This contact opted out of marketing texts (STOP): replies are refused until they text START; their appointment texts still go."
      : "This contact opted out of texts (STOP): replies are refused until they text START."
    : !contact.sendable
      ? (contact.unsendableReason ?? "This number cannot receive texts.")
      : null;
  const label = (name: string) => PLATFORM_VARIABLES.find((v) => v.name === name)?.description ?? name;
  return (
    <div className="space-y-6">
      <PageHeader
        title={`${contact.firstName} ${contact.lastName}`}
        description={<TextLink to="/contacts">All contacts</TextLink>}
        actions={<TextLink to={`/contacts/${contact.id}/edit`}>Edit</TextLink>}
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6">
          <OwnerCard contactId={contact.id} picker={owner} back={`/contacts/${contact.id}`} />
          <StageCard contactId={contact.id} stage={contact.stage} stages={stages} back={`/contacts/${contact.id}`} />
          <TagsCard contactId={contact.id} tags={tags} back={`/contacts/${contact.id}`} />
          <AppointmentsCard
            contactId={contact.id}
            appointments={appointments}
            closers={users}
            me={me}
            contactZone={contact.timeZone}
            back={`/contacts/${contact.id}`}
            bookingLink={bookingLink}
          />
          <SavingsCard contactId={contact.id} {...savings} back={`/contacts/${contact.id}`} />
          <Card title="Profile">
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-fg-muted">Phone</dt>
              <dd>{contact.phone}</dd>
              <dt className="text-fg-muted">Email</dt>
              <dd>{contact.email ?? "—"}</dd>
              <dt className="text-fg-muted">Company</dt>
              <dd>{contact.company ?? "—"}</dd>
              <dt className="text-fg-muted">Address</dt>
              <dd>{contact.address || "—"}</dd>
              <dt className="text-fg-muted">Time zone</dt>
              <dd>{contact.timeZone ?? "Unknown"}</dd>
              <dt className="text-fg-muted">Bill</dt>
              <dd data-testid="bill-received">
                {contact.billReceivedAt ? (
                  <>
                    Picture received <LocalTime iso={contact.billReceivedAt} />
                  </>
                ) : (
                  "Not received yet"
                )}
              </dd>
              {Object.entries(customFields).map(([k, v]) => (
                <FieldRow key={k} label={label(k)} value={v} />
              ))}
            </dl>
          </Card>
          <Card
            title="Consent"
            actions={
              <span className="flex flex-wrap gap-3">
                <TextLink href={`/compliance/evidence.csv?contact=${contact.id}`} download className="text-sm">
                  Consent evidence
                </TextLink>
                <TextLink
                  href={`/contacts/${contact.id}/tcpa-packet`}
                  className="text-sm"
                  data-testid="tcpa-packet-link"
                >
                  TCPA packet
                </TextLink>
              </span>
            }
          >
            <ul className="space-y-1 text-sm" data-testid="consent">
              <li>
                SMS:{" "}
                {contact.optedOutAt ? <Badge tone="danger">Opted out</Badge> : <Badge tone="success">Subscribed</Badge>}
                {contact.optedOutAt ? (
                  <span className="ml-1 text-fg-muted">
                    <LocalTime iso={contact.optedOutAt} />{" "}
                    {contact.optedOutSource ? `(${contact.optedOutSource})` : null}
                    {contact.optedOutScope === "marketing" ? " — marketing only; appointment texts still go" : null}
                  </span>
                ) : null}
              </li>
              <li>
                Email:{" "}
                {contact.emailUnsubscribedAt ? (
                  <Badge tone="danger">Unsubscribed</Badge>
                ) : (
                  <Badge tone="success">Subscribed</Badge>
                )}
              </li>
              <li>
                Consent: {contact.consentSource ?? "—"}{" "}
                {contact.consentAt ? <LocalTime iso={contact.consentAt} /> : null}
                {contact.consentPurpose === "informational" ? (
                  <span className="ml-1 text-fg-muted" data-testid="consent-appointments-only">
                    — appointment texts only: no campaign, broadcast or Quick Send texts this contact
                  </span>
                ) : null}
              </li>
              {!contact.sendable ? <li className="text-danger-text">{contact.unsendableReason}</li> : null}
            </ul>
          </Card>
          {leads.length > 0 ? (
            <Card title="Lead">
              {/* Text only: a vendor's consent text may carry markup, which React prints as written. */}
              <p className="text-sm" data-testid="lead-source">
                Lead source: <span className="font-medium">{leads[leads.length - 1].source}</span>
              </p>
              <ul className="mt-2 space-y-3 text-sm" data-testid="lead-consents">
                {leads.map((l) => (
                  <li key={l.key} className="space-y-1 break-words" data-testid="lead-consent">
                    <p>
                      <span className="font-medium">{l.source}</span> · consented <LocalTime iso={l.consentedAt} />
                    </p>
                    <p className="text-fg-muted" data-testid="consent-purpose">
                      Covers: {CONSENT_PURPOSE_LABEL[l.purpose]}
                    </p>
                    {l.sellerName ? <p className="text-fg-muted">Seller named: {l.sellerName}</p> : null}
                    {l.consentText ? (
                      <blockquote className="border-l-2 border-muted pl-2 whitespace-pre-wrap">
                        {l.consentText}
                      </blockquote>
                    ) : (
                      <p className="text-fg-muted">No consent text was sent with this lead.</p>
                    )}
                    {l.pageUrl ? <p className="text-fg-muted break-all">Page: {l.pageUrl}</p> : null}
                    {l.ipAddress ? <p className="text-fg-muted">IP: {l.ipAddress}</p> : null}
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
          {linkClicks.length ? (
            <Card title="Links opened" data-testid="contact-link-clicks">
              <ul className="space-y-1 text-sm">
                {linkClicks.map((l) => (
                  <li key={l.id} className="break-all">
                    {l.url} <Badge tone="success">{l.clicks === 1 ? "once" : `${l.clicks}×`}</Badge>{" "}
                    <span className="text-xs text-fg-subtle">
                      <LocalTime iso={l.lastClickedAt} />
                    </span>
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
          <Card title="Campaigns">
            {campaigns.length === 0 ? (
              <p className="text-sm text-fg-muted">Not in any campaign.</p>
            ) : (
              <ul className="space-y-1 text-sm">
                {campaigns.map((c) => (
                  <li key={c.id}>
                    {c.name} <Badge>{c.enrollmentStatus}</Badge>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>
        <ConversationCard
          className="lg:col-span-2"
          thread={thread}
          nonce={nonce}
          optedOut={optedOut}
          actionData={actionData}
          templates={templates}
          queue={queue ? <QueueActions item={queue} back={`/contacts/${contact.id}`} pickTime /> : null}
          users={users}
          contactZone={contact.timeZone}
        />
      </div>
    </div>
  );
}

function FieldRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt className="text-fg-muted">{label}</dt>
      <dd>{value}</dd>
    </>
  );
}

export const ErrorBoundary = ContactNotFound;
