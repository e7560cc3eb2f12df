import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { Download, Printer } from "lucide-react";
import { Alert, Card, PageHeader, Table, TBody, Td, TextLink, THead } from "~/components/ui";
import { buildTcpaPacket, contactLocalTime, PACKET_MAX_MESSAGES } from "~/contacts/build-tcpa-packet.server";
import { viewerOf } from "~/contacts/contact-scope.server";
import { CONTACT_NOT_FOUND } from "~/contacts/get-contact.server";
import { requireUser } from "~/http/guard.server";
import { routeId, throwAsResponse } from "~/http/http.server";
import { formatCount } from "~/lib/format-count";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `TCPA packet${data ? ` — ${data.contact.name}` : ""} — Helio` },
];

/**
 * GET /contacts/:id/tcpa-packet — one contact's defense packet (issue 29 item 4): consent and its evidence, every
 * message with the contact's local time, every hold and refusal with its reason, the opt-out history. A page to print
 * or save as PDF (the app's navigation is not printed), and the same entries as CSV beside it.
 */
export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  const id = routeId(args.params.id, CONTACT_NOT_FOUND);
  const packet = await buildTcpaPacket(args.context.db, id, viewerOf(me), args.context.clock()).catch(throwAsResponse);
  const zone = packet.contact.timeZone;
  // Formatted on the server: the packet reads the same printed from any browser, in any viewer's zone.
  const utc = (ms: number | null) =>
    ms === null ? "" : new Date(ms).toISOString().replace("T", " ").slice(0, 19) + " UTC";
  return {
    contact: {
      ...packet.contact,
      consentAt: utc(packet.contact.consentAt),
      optedOutAt: utc(packet.contact.optedOutAt),
      emailUnsubscribedAt: utc(packet.contact.emailUnsubscribedAt),
      createdAt: utc(packet.contact.createdAt),
    },
    entries: packet.entries.map((e) => ({ ...e, utc: utc(e.at), local: contactLocalTime(e.at, zone) })),
    truncated: packet.truncated,
    generatedAt: utc(packet.generatedAt),
  };
}

export default function TcpaPacket() {
  const { contact, entries, truncated, generatedAt } = useLoaderData<typeof loader>();
  const facts: [string, string][] = [
    ["Phone", contact.phone],
    ["Email", contact.email ?? "—"],
    ["State", contact.state ?? "Unknown"],
    ["ZIP code", contact.zipCode ?? "—"],
    ["Time zone", contact.timeZone ?? "Unknown (local times are not shown)"],
    ["Added", contact.createdAt],
    ["Consent source", contact.consentSource ?? "—"],
    ["Consent at", contact.consentAt || "—"],
    [
      "SMS",
      contact.optedOutAt
        ? `Opted out ${contact.optedOutAt} (${contact.optedOutSource ?? "unknown source"})${contact.optedOutScope === "marketing" ? ", of marketing only: appointment texts still go" : ""}`
        : "Subscribed",
    ],
    ["Email", contact.emailUnsubscribedAt ? `Unsubscribed ${contact.emailUnsubscribedAt}` : "Subscribed"],
  ];
  return (
    <div className="space-y-6" data-testid="tcpa-packet">
      <PageHeader
        title={`TCPA packet: ${contact.name}`}
        description={`Generated ${generatedAt}. Everything Helio holds on this contact's consent and messages, oldest first.`}
        actions={
          <>
            <TextLink
              href={`/contacts/${contact.id}/tcpa-packet.csv`}
              download
              className="inline-flex items-center gap-1"
            >
              <Download className="size-4" aria-hidden /> CSV
            </TextLink>
            <span className="inline-flex items-center gap-1 text-sm text-fg-muted print:hidden">
              <Printer className="size-4" aria-hidden /> Print or save as PDF from your browser
            </span>
            <TextLink href={`/contacts/${contact.id}`} className="print:hidden">
              Back to the contact
            </TextLink>
          </>
        }
      />
      <Card title="Contact">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="packet-contact">
          {facts.map(([k, v], i) => (
            <div key={i} className="contents">
              <dt className="text-fg-muted">{k}</dt>
              <dd className="break-words">{v}</dd>
            </div>
          ))}
        </dl>
      </Card>
      {truncated ? (
        <Alert tone="warning">
          Only the first {formatCount(PACKET_MAX_MESSAGES)} messages are listed. Export the rest from the Message
          Center.
        </Alert>
      ) : null}
      <p className="text-sm text-fg-muted">
        Messages older than the retention setting are in the Message Center&apos;s monthly archives; their consent
        events stay here.
      </p>
      <Table data-testid="packet-entries" caption={`${formatCount(entries.length)} entries`}>
        <THead
          columns={["When (UTC)", "Contact's local time", "Record", "What", "From → to", "Text", "Status or reason"]}
        />
        <TBody>
          {entries.map((e, i) => (
            <tr key={i} data-testid="packet-entry" className="align-top">
              <Td className="whitespace-nowrap">{e.utc}</Td>
              <Td className="whitespace-nowrap">{e.local || "—"}</Td>
              <Td>{e.record}</Td>
              <Td>
                {e.what}
                {e.channel ? ` (${e.channel === "sms" ? "SMS" : "email"})` : ""}
              </Td>
              <Td className="break-all">{[e.from, e.to].filter(Boolean).join(" → ")}</Td>
              <Td className="max-w-md break-words whitespace-pre-wrap">{e.text}</Td>
              <Td className="break-words">{[e.status, e.reason].filter(Boolean).join(" · ")}</Td>
            </tr>
          ))}
        </TBody>
      </Table>
    </div>
  );
}
