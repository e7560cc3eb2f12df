import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { BadgeCheck, Download, PlayCircle, ShieldCheck } from "lucide-react";
import { z } from "zod";
import { getComplianceReport, MAX_REPORT_DAYS } from "~/analytics/get-compliance-report.server";
import { requireUser } from "~/http/guard.server";
import { LocalTime } from "~/components/local-time";
import {
  Alert,
  Badge,
  Button,
  Card,
  EmptyState,
  Field,
  PageHeader,
  StatCard,
  Table,
  TBody,
  Td,
  THead,
} from "~/components/ui";
import { formAction } from "~/http/form-action.server";
import { zodId } from "~/lib/ids";
import { listPlainWordsOptOuts, undoPlainWordsOptOut } from "~/messaging/review-plain-opt-outs.server";
import { redirectWithToast } from "~/http/toast.server";
import { describeRule, FEDERAL_RULE, STATE_RULES, UNPLACED_RULE } from "~/messaging/state-rules";
import { formatCount } from "~/lib/format-count";
import { fieldProps } from "~/components/form-failure";
import {
  DEFAULT_PAUSE_THRESHOLD,
  FILTERING_CODES,
  MAX_PAUSE_FILTERED,
  PAUSE_FILTERED_MESSAGE,
  PAUSE_PERCENT_MESSAGE,
} from "~/deliverability/carrier-filtering";
import { loadPauseThreshold, savePauseThreshold } from "~/deliverability/pause-threshold.server";
import { listSendingNumberHealth } from "~/deliverability/list-sending-number-health.server";
import { resumeSendingNumber } from "~/deliverability/resume-sending-number.server";
import { saveStopScope } from "~/deliverability/save-stop-scope.server";
import { loadStopScopeSettings } from "~/messaging/org-settings.server";
import { REVOKE_ALL_FROM, STOP_SCOPE_LABEL, STOP_SCOPE_SETTINGS, stopRuleAt } from "~/messaging/stop-scope";
import { sendingNumber } from "~/users/user-schema";

export const meta: MetaFunction = () => [{ title: "Compliance report — Helio" }];

const DAY = 86_400_000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);
const dayParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)));

/**
 * `?from=&to=` (UTC days, default the last 30); a wrong or too long range falls back to the default. Superusers
 * only (decision 023): organisation-wide reporting (SPEC §6); a rep downloads one contact's evidence from its page.
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args, { role: "superuser" });
  const url = new URL(args.request.url);
  const today = isoDay(args.context.clock().getTime());
  let from =
    dayParam.safeParse(url.searchParams.get("from")).data ?? isoDay(Date.parse(`${today}T00:00:00Z`) - 29 * DAY);
  let to = dayParam.safeParse(url.searchParams.get("to")).data ?? today;
  if (from > to || (Date.parse(to) - Date.parse(from)) / DAY >= MAX_REPORT_DAYS) {
    from = isoDay(Date.parse(`${today}T00:00:00Z`) - 29 * DAY);
    to = today;
  }
  const [report, plainWords, sendingNumbers, pauseThreshold, stopScope] = await Promise.all([
    getComplianceReport(args.context.db, { from, to }),
    listPlainWordsOptOuts(args.context.db),
    listSendingNumberHealth(args.context.db, args.context.clock()),
    loadPauseThreshold(args.context.db),
    loadStopScopeSettings(args.context.db),
  ]);
  const stopRule = stopRuleAt(stopScope.setting, args.context.clock());
  return { ...report, plainWords, sendingNumbers, pauseThreshold, stopScope, stopRule };
}

const intents = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("undo-opt-out"),
    id: zodId(),
    note: z
      .string()
      .trim()
      .min(1, "Please say why the opt-out is undone")
      .max(500, "The note can be at most 500 characters"),
  }),
  z.object({
    intent: z.literal("autopilot-threshold"),
    filtered: z.coerce
      .number({ invalid_type_error: PAUSE_FILTERED_MESSAGE })
      .int(PAUSE_FILTERED_MESSAGE)
      .min(0, PAUSE_FILTERED_MESSAGE)
      .max(MAX_PAUSE_FILTERED, PAUSE_FILTERED_MESSAGE),
    percent: z.coerce
      .number({ invalid_type_error: PAUSE_PERCENT_MESSAGE })
      .min(0, PAUSE_PERCENT_MESSAGE)
      .max(100, PAUSE_PERCENT_MESSAGE)
      .refine((v) => Number.isInteger(v * 100), PAUSE_PERCENT_MESSAGE),
  }),
  z.object({
    intent: z.literal("stop-scope"),
    setting: z.enum(STOP_SCOPE_SETTINGS, { message: "Choose what a STOP covers" }),
    informationalSender: sendingNumber.optional(),
  }),
  z.object({
    intent: z.literal("resume-sender"),
    sender: z.string().trim().min(1).max(40, "That is not a sending number"),
  }),
]);

/**
 * Undo an opt-out understood from plain words, with a note; resume a sending number the deliverability autopilot
 * paused (superusers; both kept in the activity log).
 */
export async function action(args: ActionFunctionArgs) {
  return formAction(args, { schema: intents, role: "superuser" }, async (input, { actor }) => {
    if (input.intent === "autopilot-threshold") {
      await savePauseThreshold(
        args.context.db,
        { filtered: input.filtered, percent: input.percent },
        actor,
        args.context.clock(),
      );
      return redirectWithToast(args.context, "/compliance#sending-numbers", {
        title: input.filtered === 0 ? "The autopilot no longer pauses numbers" : "Autopilot thresholds saved",
      });
    }
    if (input.intent === "stop-scope") {
      await saveStopScope(
        args.context.db,
        args.context.sms(),
        { setting: input.setting, informationalSender: input.informationalSender ?? null },
        actor,
        args.context.clock(),
      );
      return redirectWithToast(args.context, "/compliance#stop-scope", { title: "Opt-out settings saved" });
    }
    if (input.intent === "resume-sender") {
      const { released, more } = await resumeSendingNumber(args.context.domain(), input.sender, actor);
      return redirectWithToast(args.context, "/compliance#sending-numbers", {
        title: `Marketing resumed on ${input.sender}`,
        description: `${formatCount(released)}${more ? "+" : ""} held texts are back in the send queue.`,
      });
    }
    await undoPlainWordsOptOut(args.context.db, input.id, input.note, actor, args.context.clock());
    return redirectWithToast(args.context, "/compliance", {
      title: "Opt-out undone",
      description: "The number can be texted again; your note is in the activity log.",
    });
  });
}

const KIND_LABEL = {
  opt_out: "Opt-out",
  opt_in: "Opt-in",
  refused: "Refused send",
  quiet_hours: "Held for quiet hours",
  held: "Held by a cap or a paused number",
} as const;

export default function ComplianceReport() {
  const r = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const n = (x: number) => formatCount(x);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Compliance report"
        description="Consent changes and refused or held sends, recorded on every path (keyword, unsubscribe link, carrier error, manual, import)."
        actions={
          <>
            <Button to="/compliance/10dlc" variant="outline" icon={BadgeCheck}>
              10DLC registration
            </Button>
            <Button to="/compliance/evidence.csv" reloadDocument variant="secondary" icon={Download}>
              Download consent evidence (CSV)
            </Button>
          </>
        }
      />
      <Form method="get" className="flex flex-wrap items-end gap-3" data-testid="compliance-range">
        <Field label="From (UTC)" name="from" type="date" defaultValue={r.from} />
        <Field label="To (UTC)" name="to" type="date" defaultValue={r.to} />
        <Button type="submit" variant="outline">
          Show
        </Button>
      </Form>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5" data-testid="compliance-totals">
        <StatCard label="Opt-outs" value={n(r.totals.opt_out)} />
        <StatCard label="Opt-ins" value={n(r.totals.opt_in)} />
        <StatCard label="Refused sends" value={n(r.totals.refused)} />
        <StatCard label="Held for quiet hours" value={n(r.totals.quiet_hours)} />
        <StatCard label="Held by a cap or a paused number" value={n(r.totals.held)} />
      </div>
      <Card title="Why" description="Opt-outs and opt-ins by source; refused and held sends by reason.">
        {r.reasons.length === 0 ? (
          <EmptyState icon={ShieldCheck} title="Nothing recorded in this range" />
        ) : (
          <Table data-testid="compliance-reasons">
            <THead columns={["Event", "Channel", "Source or reason", "Count"]} />
            <TBody>
              {r.reasons.map((x) => (
                <tr key={`${x.kind}:${x.channel}:${x.why}`}>
                  <Td>{KIND_LABEL[x.kind]}</Td>
                  <Td>{x.channel === "sms" ? "SMS" : "Email"}</Td>
                  <Td>{x.why}</Td>
                  <Td>{n(x.count)}</Td>
                </tr>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
      {r.days.length ? (
        <Card title="Per day (UTC)">
          <Table data-testid="compliance-days">
            <THead columns={["Day", "Opt-outs", "Opt-ins", "Refused", "Held for quiet hours", "Held otherwise"]} />
            <TBody>
              {r.days.map((d) => (
                <tr key={d.day}>
                  <Td>{d.day}</Td>
                  <Td>{n(d.optOut)}</Td>
                  <Td>{n(d.optIn)}</Td>
                  <Td>{n(d.refused)}</Td>
                  <Td>{n(d.quietHours)}</Td>
                  <Td>{n(d.held)}</Td>
                </tr>
              ))}
            </TBody>
          </Table>
        </Card>
      ) : null}
      <Card
        title="Opt-outs understood from plain words"
        description="Texts such as “Stop texting me” or “remove me from your list” opt the number out at once, with the one confirmation text; so does a reply the AI classifier is confident asks to stop. If one was read wrongly, undo it with a note."
        data-testid="plain-opt-outs"
      >
        {failed ? (
          <Alert tone="danger" className="mb-3">
            {failed.message}
          </Alert>
        ) : null}
        {r.plainWords.length === 0 ? (
          <p className="text-sm text-fg-muted">None yet.</p>
        ) : (
          <ul className="divide-y divide-border">
            {r.plainWords.map((o) => (
              <li key={o.id} className="space-y-2 py-3" data-testid="plain-opt-out">
                <p className="text-sm">
                  <span className="font-mono">{o.phone}</span> · <LocalTime iso={o.at} pattern="MMM d, HH:mm" /> ·{" "}
                  <span data-testid="opt-out-reason">
                    {o.reason === "classifier" ? "AI classifier" : "plain words"}
                  </span>
                </p>
                {o.words ? <p className="text-sm whitespace-pre-wrap text-fg-muted">“{o.words}”</p> : null}
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <input type="hidden" name="intent" value="undo-opt-out" />
                  <input type="hidden" name="id" value={o.id} />
                  <Field label="Note" name="note" required maxLength={500} placeholder="Why this was not an opt-out" />
                  <Button type="submit" variant="outline" size="sm">
                    Undo opt-out
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card
        id="sending-numbers"
        title="Sending numbers"
        description={
          r.pauseThreshold.filtered === 0
            ? `The autopilot is off: no number is paused, however many of its texts carriers filter (Twilio ${FILTERING_CODES.join(", ")}).`
            : `When carriers filter ${r.pauseThreshold.filtered} or more of a number's texts in a day (UTC), and at least ${r.pauseThreshold.percent}% of what it sent (Twilio ${FILTERING_CODES.join(", ")}), its campaign, broadcast, quick-send and follow-up texts pause and the alert address is emailed. A rep's own texts and appointment texts still go. Resume it once the content, opt-in or registration is fixed.`
        }
        data-testid="sending-numbers"
      >
        <Form method="post" className="mb-4 grid gap-3 sm:grid-cols-3 sm:items-end" data-testid="autopilot-threshold">
          <input type="hidden" name="intent" value="autopilot-threshold" />
          <Field
            label="Pause after filtered texts a day"
            type="number"
            min={0}
            max={MAX_PAUSE_FILTERED}
            required
            hint="0 never pauses"
            {...fieldProps(failed, "filtered", String(r.pauseThreshold.filtered))}
          />
          <Field
            label="…and at least this % of its texts"
            inputMode="decimal"
            required
            hint={`Default ${DEFAULT_PAUSE_THRESHOLD.percent}`}
            {...fieldProps(failed, "percent", String(r.pauseThreshold.percent))}
          />
          <Button type="submit" variant="outline" size="sm">
            Save thresholds
          </Button>
        </Form>
        {r.sendingNumbers.length === 0 ? (
          <p className="text-sm text-fg-muted">No number has texted yet.</p>
        ) : (
          <ul className="divide-y divide-border">
            {r.sendingNumbers.map((s) => (
              <li key={s.sender} className="space-y-2 py-3" data-testid="sending-number">
                <p className="flex flex-wrap items-center gap-2 text-sm">
                  <span className="font-mono">{s.sender}</span>
                  {s.pausedAt ? <Badge tone="danger">Marketing paused</Badge> : <Badge tone="success">Sending</Badge>}
                  <span className="text-fg-muted">
                    {n(s.sentToday)} sent today · {n(s.filteredToday)} filtered by carriers
                  </span>
                </p>
                {s.pausedAt ? (
                  <>
                    <p className="text-sm text-fg-muted" data-testid="pause-reason">
                      Since <LocalTime iso={s.pausedAt} pattern="MMM d, HH:mm" />: {s.reason}
                    </p>
                    <Form method="post">
                      <input type="hidden" name="intent" value="resume-sender" />
                      <input type="hidden" name="sender" value={s.sender} />
                      <Button type="submit" variant="outline" size="sm" icon={PlayCircle}>
                        Resume marketing
                      </Button>
                    </Form>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card
        id="stop-scope"
        title="What a STOP covers"
        description={
          r.stopRule === "purpose"
            ? r.stopScope.informationalSender
              ? `In force today: per purpose. A STOP to any other number ends marketing and your team's texts; appointment texts go on from ${r.stopScope.informationalSender}. A STOP to that number ends everything.`
              : "In force today: per purpose, but with no informational number every STOP ends every text: carriers block all texts from the number a STOP reached. Give appointment texts a number of their own (its own 10DLC campaign) to keep them going."
            : "In force today: a STOP ends every text; only the one confirmation goes."
        }
        data-testid="stop-scope"
      >
        <Form method="post" className="grid gap-3 sm:grid-cols-2 sm:items-end">
          <input type="hidden" name="intent" value="stop-scope" />
          <Field
            as="select"
            label="A STOP applies to"
            options={STOP_SCOPE_SETTINGS.map((v) => ({ value: v, label: STOP_SCOPE_LABEL[v] }))}
            {...fieldProps(failed, "setting", r.stopScope.setting)}
          />
          <Field
            label="Informational number"
            inputMode="tel"
            maxLength={40}
            placeholder="+15551230000"
            hint="Appointment texts go from it; none: from the usual number"
            {...fieldProps(failed, "informationalSender", r.stopScope.informationalSender ?? "")}
          />
          <p className="text-sm text-fg-muted sm:col-span-2">
            The FCC&apos;s rule that one revocation ends every unrelated text takes effect on{" "}
            {new Date(REVOKE_ALL_FROM).toISOString().slice(0, 10)}; “Follow the FCC” switches then by itself. Earlier
            opt-outs keep what they covered; a contact&apos;s START lifts either.
          </p>
          <div>
            <Button type="submit" variant="outline" size="sm">
              Save opt-out settings
            </Button>
          </div>
        </Form>
      </Card>
      <Card
        title="State texting rules"
        description="Marketing texts wait for the contact's state window in their local time (deferred, never dropped). Every other state follows the federal rule."
      >
        <Table data-testid="state-rules">
          <THead columns={["State", "When texts may go out", "Law", "Reviewed"]} />
          <TBody>
            {[FEDERAL_RULE, ...STATE_RULES, UNPLACED_RULE].map((rule) => (
              <tr key={rule.state}>
                <Td>
                  {rule.state === "US"
                    ? rule.name
                    : rule === UNPLACED_RULE
                      ? "State unknown (no state or ZIP on the contact)"
                      : `${rule.name} (${rule.state})`}
                </Td>
                <Td>{describeRule(rule)}</Td>
                <Td>{rule.statute}</Td>
                <Td>{rule.reviewed}</Td>
              </tr>
            ))}
          </TBody>
        </Table>
      </Card>
      <p className="text-sm text-fg-muted">
        One contact&apos;s evidence is on their page (Contacts → the contact → &quot;Consent evidence&quot;).
        Unsubscribe requests are honoured at once on every path.
      </p>
    </div>
  );
}
