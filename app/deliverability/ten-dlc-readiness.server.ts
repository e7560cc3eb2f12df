import { desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { exampleValues } from "~/contacts/variables";
import { bulkInsertSql } from "~/db/bulk-update.server";
import { runBatch, type Db } from "~/db/client.server";
import {
  appointments,
  campaignSteps,
  leadConsents,
  orgSettings,
  senderRegistrations,
  templates,
  users,
} from "~/db/schema";
import type { SenderRegistrationRow } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { loadStopScopeSettings, orgSettingsFrom, selectOrgSettings } from "~/messaging/org-settings.server";
import type { SmsProvider } from "~/messaging/providers/provider";
import { renderQuickSend, renderTemplate } from "~/messaging/render";
import {
  checkRegistration,
  draftRegistration,
  MESSAGE_FLOW_MAX,
  OPT_IN_DESCRIPTION_KEY,
  registrationsFrom,
  unregisteredSenderWarning,
  type TenDlcDraft,
  type TenDlcFinding,
} from "./ten-dlc";

/** How much real copy the draft looks at: the newest SMS templates and campaign steps. */
const COPY_READ = 20;
/** A sending-number table bigger than this is not one team's: the check stops there. */
const SENDERS_READ = 500;

export type TenDlcReadiness = {
  draft: TenDlcDraft;
  findings: TenDlcFinding[];
  registrations: SenderRegistrationRow[];
  /** The default sender, each rep's own number and the informational number: the senders Helio texts from. */
  senders: string[];
};

/**
 * The senders Helio texts from: the provider's default, each rep's own number (decision 045) and the informational
 * number appointment texts go from (decision 072; its own 10DLC campaign).
 */
async function sendersOf(db: Db, defaultSender: string): Promise<string[]> {
  const [reps, { informationalSender }] = await Promise.all([
    db.select({ n: users.smsSender }).from(users).where(isNotNull(users.smsSender)).limit(SENDERS_READ),
    loadStopScopeSettings(db),
  ]);
  return [...new Set([defaultSender, ...reps.map((r) => r.n!), informationalSender ?? ""])].filter(Boolean);
}

/**
 * The registration drafted from the organisation's settings and its newest SMS copy (variables filled with the
 * organisation's values, else the platform's examples), the findings against it, and the last registration check.
 */
export async function loadTenDlcReadiness(db: Db, defaultSender: string): Promise<TenDlcReadiness> {
  const [settings, consent, tpl, steps, appointment, registrations, senders] = await Promise.all([
    selectOrgSettings(db),
    // The newest lead that carried its form's consent wording: a walk back along the primary key.
    db
      .select({ text: leadConsents.consentText })
      .from(leadConsents)
      .where(isNotNull(leadConsents.consentText))
      .orderBy(desc(leadConsents.id))
      .limit(1),
    db
      .select({ name: templates.name, content: templates.content })
      .from(templates)
      .where(eq(templates.type, "sms"))
      .orderBy(desc(templates.createdAt))
      .limit(COPY_READ),
    db
      .select({ name: campaignSteps.name, content: campaignSteps.content })
      .from(campaignSteps)
      .where(eq(campaignSteps.messageType, "sms"))
      .orderBy(desc(campaignSteps.id))
      .limit(COPY_READ),
    db.select({ id: appointments.id }).from(appointments).limit(1),
    db.select().from(senderRegistrations).orderBy(senderRegistrations.sender).limit(SENDERS_READ),
    sendersOf(db, defaultSender),
  ]);
  const org = orgSettingsFrom(settings);
  const optInDescription = settings.find((s) => s.key === OPT_IN_DESCRIPTION_KEY)?.value;
  const values: Record<string, string | undefined> = { ...exampleValues(), ...org };
  const render = (content: string) =>
    renderQuickSend(renderTemplate(content, values, { now: new Date(0), timeZone: "UTC" }).text, {
      firstName: values.firstName ?? "",
      lastName: values.lastName ?? "",
      company: org.company ?? "",
      address: values.address ?? "",
    });
  const draft = draftRegistration({
    ...org,
    optInDescription,
    consentText: consent[0]?.text,
    samples: [
      ...tpl.map((t) => ({ source: `Template “${t.name}”`, text: render(t.content) })),
      ...steps.map((s) => ({ source: `Campaign step “${s.name}”`, text: render(s.content) })),
    ],
    sendsAppointmentTexts: appointment.length > 0,
  });
  return { draft, findings: checkRegistration(draft, org.company), registrations, senders };
}

/** The superuser's own opt-in description (the campaign's message flow); empty puts the drafted one back. */
export async function saveOptInDescription(db: Db, text: string, now: Date) {
  const value = text.trim();
  if (value.length > MESSAGE_FLOW_MAX)
    throw new AppError("validation", `The opt-in description can be at most ${MESSAGE_FLOW_MAX} characters.`, {
      field: "optInDescription",
    });
  if (!value) {
    await db.delete(orgSettings).where(eq(orgSettings.key, OPT_IN_DESCRIPTION_KEY));
    return;
  }
  await db
    .insert(orgSettings)
    .values({ key: OPT_IN_DESCRIPTION_KEY, value, updatedAt: now })
    .onConflictDoUpdate({ target: orgSettings.key, set: { value, updatedAt: now } });
}

/**
 * Asks the provider for its Messaging Services' numbers and A2P campaigns and replaces the stored statuses in one
 * batch: every sender Helio uses gets a row (NONE when no campaign holds it).
 */
export async function refreshSenderRegistrations(db: Db, sms: SmsProvider, now: Date) {
  if (!sms.a2pServices)
    throw new AppError(
      "unavailable",
      "Registration status comes from Twilio: set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN to check it.",
    );
  const [services, senders, tollFree] = await Promise.all([
    sms.a2pServices(),
    sendersOf(db, sms.sender),
    sms.tollFreeVerifications?.() ?? [],
  ]);
  const rows = registrationsFrom(services, senders, tollFree).slice(0, SENDERS_READ);
  // The rows travel as one JSON value: D1 binds at most 100 parameters to a statement, six a row would stop at 16.
  const t = now.getTime();
  await runBatch(db, [
    db.delete(senderRegistrations),
    ...(rows.length
      ? [
          db.run(
            bulkInsertSql(senderRegistrations, rows, (j) => ({
              values: {
                sender: j.sender,
                status: j.status,
                serviceSid: j.serviceSid,
                campaignSid: j.campaignSid,
                useCase: j.useCase,
                checkedAt: t,
              },
            })),
          ),
        ]
      : []),
  ]);
  return rows;
}

/**
 * The pre-send check's warnings for texts from the senders Helio uses (decision 067): each 10DLC number or Messaging
 * Service without a verified campaign at the last check, or never checked. Only where carriers apply it: not from the
 * local outbox (a provider that cannot report registrations).
 */
export async function unregisteredSenderWarnings(
  db: Db,
  sms: Pick<SmsProvider, "a2pServices" | "sender">,
): Promise<{ code: "unregistered_sender"; message: string }[]> {
  if (!sms.a2pServices) return [];
  const senders = await sendersOf(db, sms.sender);
  const [rows, any] = await Promise.all([
    db.select().from(senderRegistrations).where(inArray(senderRegistrations.sender, senders)),
    db
      .select({ n: sql<number>`1` })
      .from(senderRegistrations)
      .limit(1),
  ]);
  const by = new Map(rows.map((r) => [r.sender, r]));
  return senders
    .map((s) => unregisteredSenderWarning(s, by.get(s) ?? null, any.length > 0))
    .filter((w): w is string => w !== null)
    .map((message) => ({ code: "unregistered_sender" as const, message }));
}
