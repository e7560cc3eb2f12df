import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { RefreshCw } from "lucide-react";
import { z } from "zod";
import { requireUser } from "~/http/guard.server";
import { Alert, Badge, Button, Card, Field, PageHeader, Table, TBody, Td, THead } from "~/components/ui";
import { LocalTime } from "~/components/local-time";
import { formAction } from "~/http/form-action.server";
import { redirectWithToast } from "~/http/toast.server";
import { formatCount } from "~/lib/format-count";
import { isTenDlcNumber, isTollFreeNumber, MESSAGE_FLOW_MAX } from "~/deliverability/ten-dlc";
import {
  loadTenDlcReadiness,
  refreshSenderRegistrations,
  saveOptInDescription,
} from "~/deliverability/ten-dlc-readiness.server";

export const meta: MetaFunction = () => [{ title: "10DLC registration — Helio" }];

/** Superusers only (decision 067): the registration speaks for the whole organisation. */
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args, { role: "superuser" });
  const sms = args.context.sms();
  const readiness = await loadTenDlcReadiness(args.context.db, sms.sender);
  return { ...readiness, canCheck: Boolean(sms.a2pServices), provider: sms.name };
}

const intents = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("refresh") }),
  z.object({
    intent: z.literal("opt-in-description"),
    optInDescription: z
      .string()
      .max(MESSAGE_FLOW_MAX, `The opt-in description can be at most ${MESSAGE_FLOW_MAX} characters`)
      .default(""),
  }),
]);

export async function action(args: ActionFunctionArgs) {
  return formAction(args, { schema: intents, role: "superuser" }, async (input) => {
    const now = args.context.clock();
    if (input.intent === "refresh") {
      const rows = await refreshSenderRegistrations(args.context.db, args.context.sms(), now);
      const verified = rows.filter((r) => r.status === "VERIFIED").length;
      return redirectWithToast(args.context, "/compliance/10dlc#registration-status", {
        title: "Registration status checked",
        description: `${formatCount(verified)} of ${formatCount(rows.length)} senders have a verified 10DLC campaign.`,
      });
    }
    await saveOptInDescription(args.context.db, input.optInDescription, now);
    return redirectWithToast(args.context, "/compliance/10dlc#campaign", {
      title: input.optInDescription.trim() ? "Opt-in description saved" : "Drafted opt-in description restored",
    });
  });
}

const STATUS_TONE = {
  VERIFIED: "success",
  IN_PROGRESS: "info",
  PENDING: "info",
  FAILED: "danger",
  NONE: "warning",
} as const;

function Block({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="space-y-1" data-testid={testId}>
      <dt className="text-sm font-medium">{label}</dt>
      <dd className="text-sm break-words whitespace-pre-wrap text-fg-muted">{children}</dd>
    </div>
  );
}

export default function TenDlcReadiness() {
  const r = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const c = r.draft.campaign;
  const errors = r.findings.filter((f) => f.level === "error");
  const checkedAt = r.registrations[0]?.checkedAt;
  return (
    <div className="space-y-6">
      <PageHeader
        title="10DLC registration"
        description="US carriers carry texts from local numbers only under a registered brand and campaign; unregistered texts are blocked (Twilio 30034). Helio drafts the registration from your settings and the texts you really send, and checks it against the reasons reviewers reject one."
        actions={
          <Button to="/compliance" variant="outline">
            Compliance report
          </Button>
        }
      />
      {failed ? <Alert tone="danger">{failed.message}</Alert> : null}
      <Card
        title="Review before you submit"
        description={
          errors.length
            ? `${errors.length} ${errors.length === 1 ? "problem" : "problems"} a reviewer would reject the campaign for.`
            : "Nothing a reviewer is known to reject. Copy the fields below into Twilio's campaign form."
        }
        data-testid="tendlc-findings"
      >
        {r.findings.length === 0 ? (
          <Alert tone="success">Ready to submit.</Alert>
        ) : (
          <ul className="space-y-2">
            {r.findings.map((f, i) => (
              <li key={i}>
                <Alert tone={f.level === "error" ? "danger" : "warning"} data-testid={`tendlc-${f.level}`}>
                  {f.message}
                </Alert>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card
        title="Brand"
        description="Twilio: Trust Hub → A2P brand. The legal details (EIN, address) come from your papers."
      >
        <dl className="grid gap-3 sm:grid-cols-2">
          <Block label="Brand name" testId="tendlc-brand">
            {r.draft.brand.displayName}
          </Block>
          <Block label="Website">{r.draft.brand.website || "—"}</Block>
          <Block label="Support phone">{r.draft.brand.phone || "—"}</Block>
          <Block label="Vertical">Energy</Block>
        </dl>
      </Card>
      <Card id="campaign" title="Campaign" description="Twilio: Messaging → Regulatory compliance → campaign.">
        <dl className="space-y-4">
          <Block label="Use case">
            {c.useCase === "MIXED" ? "Mixed (marketing and appointment reminders)" : "Marketing"}
          </Block>
          <Block label="Campaign description" testId="tendlc-description">
            {c.description}
          </Block>
          <Block label="How homeowners opt in (message flow)" testId="tendlc-flow">
            {c.messageFlow}
          </Block>
          <div className="space-y-1" data-testid="tendlc-samples">
            <dt className="text-sm font-medium">Sample messages</dt>
            {c.samples.length === 0 ? (
              <dd className="text-sm text-fg-muted">No SMS templates or campaign steps yet.</dd>
            ) : (
              c.samples.map((s, i) => (
                <dd key={i} className="rounded-md border border-border p-2 text-sm" data-testid="tendlc-sample">
                  <span className="block text-xs text-fg-muted">{s.source}</span>
                  <span className="break-words whitespace-pre-wrap">{s.text}</span>
                </dd>
              ))
            )}
          </div>
          <Block label="Embedded links / phone numbers">
            {c.hasEmbeddedLinks ? "Yes" : "No"} / {c.hasEmbeddedPhone ? "Yes" : "No"}
          </Block>
          {(
            [
              ["Opt-out", c.optOutKeywords, c.optOutMessage],
              ["Help", c.helpKeywords, c.helpMessage],
              ["Opt-in", c.optInKeywords, c.optInMessage],
            ] as const
          ).map(([label, keywords, reply]) => (
            <Block key={label} label={`${label} keywords and reply`}>
              {keywords.join(", ")}
              {"\n"}
              {reply}
            </Block>
          ))}
        </dl>
        <Form method="post" className="mt-4 space-y-2" data-testid="tendlc-flow-form">
          <input type="hidden" name="intent" value="opt-in-description" />
          <Field
            as="textarea"
            label="Your own opt-in description"
            name="optInDescription"
            rows={4}
            maxLength={MESSAGE_FLOW_MAX}
            defaultValue={c.messageFlowWritten ? c.messageFlow : ""}
            hint="Describe every way homeowners consent (your form and its checkbox text, lead partners, a keyword). Leave empty to use the draft above."
          />
          <Button type="submit" variant="outline" size="sm">
            Save opt-in description
          </Button>
        </Form>
      </Card>
      <Card
        id="registration-status"
        title="Registration status"
        description={
          r.canCheck
            ? "Each sending number's campaign — a toll-free number's verification — as Twilio reported it at the last check. Texts from a local number without a verified campaign, or a toll-free number not yet approved, get a warning before they are sent."
            : "Texts go to the local outbox: no carrier registration applies. With Twilio credentials set, check each number's campaign here."
        }
        data-testid="tendlc-status"
      >
        {r.canCheck ? (
          <Form method="post" className="mb-3">
            <input type="hidden" name="intent" value="refresh" />
            <Button type="submit" variant="outline" size="sm" icon={RefreshCw}>
              Check with Twilio
            </Button>
          </Form>
        ) : null}
        {r.registrations.length === 0 ? (
          <p className="text-sm text-fg-muted">
            {r.canCheck ? "Not checked yet." : `Sending from ${r.senders.join(", ") || "—"} through ${r.provider}.`}
          </p>
        ) : (
          <>
            <Table>
              <THead columns={["Sender", "Campaign status", "Use case"]} />
              <TBody>
                {r.registrations.map((g) => (
                  <tr key={g.sender} data-testid="tendlc-sender">
                    <Td className="font-mono">{g.sender}</Td>
                    <Td>
                      <Badge tone={STATUS_TONE[g.status]}>
                        {g.status === "NONE"
                          ? isTollFreeNumber(g.sender)
                            ? "Not verified"
                            : "No campaign"
                          : g.status.replace("_", " ").toLowerCase()}
                      </Badge>
                      {g.status !== "VERIFIED" && (isTenDlcNumber(g.sender) || isTollFreeNumber(g.sender)) ? (
                        <span className="ml-2 text-xs text-fg-muted">texts will be blocked</span>
                      ) : null}
                    </Td>
                    <Td>{g.useCase === "TOLL_FREE" ? "Toll-free verification" : (g.useCase ?? "—")}</Td>
                  </tr>
                ))}
              </TBody>
            </Table>
            {checkedAt ? (
              <p className="mt-2 text-xs text-fg-muted">
                Checked <LocalTime iso={new Date(checkedAt).toISOString()} pattern="MMM d, HH:mm" />
              </p>
            ) : null}
          </>
        )}
      </Card>
    </div>
  );
}
