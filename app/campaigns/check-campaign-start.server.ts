import { and, asc, desc, eq, gt, lt } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { campaignEnrollments, campaignSteps, contacts, type Campaign } from "~/db/schema";
import { loadUserContactScope, type ContactViewer } from "~/contacts/contact-scope.server";
import { listContacts, MAX_PAGE_SIZE } from "~/contacts/list-contacts.server";
import { AppError } from "~/lib/app-error";
import type { VariableProvider } from "~/messaging/pipeline-hooks";
import {
  checkBroadcast,
  recipientsCsv,
  type BroadcastCheck,
  type BroadcastCheckInput,
} from "~/messaging/check-broadcast.server";
import { delayLabel, delayMs } from "./delay-label";
import { getCampaignRow } from "./get-campaign.server";
import { formatClock, nextInStepWindow } from "./send-window";
import { firstStepAnchor } from "./start-campaign.server";
import { loadDefinitions } from "~/segments/segment-access.server";
import { selectSegmentMemberIds } from "~/segments/segment-members.server";

/** The design's audience (100,000 contacts): a check reads at most this many recipients and says so when cut. */
export const MAX_START_CHECK = 100_000;
/** Enrolled contacts per read. */
const ENROLLED_PAGE = 5000;

export type CampaignStartCheck = {
  campaign: { id: number; name: string };
  /** The first active step, when there is one: what the check judges. */
  step: {
    number: number;
    type: "sms" | "email";
    delay: string;
    /** When it falls due for everyone enrolled at start (before each contact's windows), ISO. */
    dueAt: string;
    window: string | null;
  } | null;
  audience: { checked: number; truncated: boolean };
  check: BroadcastCheck | null;
};

/**
 * The pre-start check of a draft campaign (issue 29 item 4): its first step judged for each contact it would go to
 * — the contacts added by hand and, when the campaign takes "every contact" or a search at start, those too — at the
 * moment it falls due (the scheduled start or now, plus the step's delay), through the step's send window, the
 * state's calling window and caps, opt-outs and unsendable lines, rendered with the campaign's own variables.
 * Reads O(audience); writes nothing.
 */
export async function checkCampaignStart(db: Db, q: StartCheckQuery): Promise<CampaignStartCheck> {
  const plan = await planStartCheck(db, q);
  return {
    campaign: plan.campaign,
    step: plan.step,
    audience: plan.audience,
    check: plan.input ? await checkBroadcast(db, plan.input, q.now) : null,
  };
}

/** The same check one line per recipient (the broadcast check's CSV); names only of the contacts the viewer sees. */
export async function campaignStartCsv(
  db: Db,
  q: StartCheckQuery & { viewer: ContactViewer },
): Promise<{ name: string; csv: string }> {
  const plan = await planStartCheck(db, q);
  if (!plan.input) throw new AppError("conflict", "Add at least one active step before starting the campaign");
  return { name: plan.campaign.name, csv: await recipientsCsv(db, plan.input, q.now, q.viewer) };
}

type StartCheckQuery = {
  campaignId: number;
  now: Date;
  publicBaseUrl: string;
  /** The pipeline's variable providers: the step's Solar variables rendered as the consumer will. */
  variables: readonly VariableProvider[];
};

async function planStartCheck(db: Db, q: StartCheckQuery) {
  const c = await getCampaignRow(db, q.campaignId);
  if (c.status !== "draft")
    throw new AppError("conflict", "Only a draft campaign is checked before it starts; this one has started");
  const [step, audience] = await Promise.all([firstActiveStep(db, c.id), startAudience(db, c, q.now)]);
  const campaign = { id: c.id, name: c.name };
  const checked = { checked: audience.ids.length, truncated: audience.truncated };
  if (!step) return { campaign, step: null, audience: checked, input: null };
  const due = firstStepAnchor(c, q.now) + delayMs(step.delayDays, step.delayHours);
  const window =
    step.windowStart !== null && step.windowEnd !== null
      ? { startMinute: step.windowStart, endMinute: step.windowEnd, weekdaysOnly: step.windowWeekdays }
      : null;
  const input: BroadcastCheckInput = {
    type: step.messageType,
    subject: step.messageType === "email" ? step.subject : null,
    content: step.content,
    contactIds: audience.ids,
    scheduledAt: new Date(due),
    publicBaseUrl: q.publicBaseUrl,
    senderId: c.createdBy,
    campaign: { campaignName: c.name, promoCode: c.promoCode, offerExpiration: c.offerExpiration },
    window: window && ((t, timeZone) => nextInStepWindow(t, timeZone, window)),
    // A step goes with the blank or the fallback; the check counts who would read one.
    missingVariables: "blank",
    variables: q.variables,
  };
  return {
    campaign,
    step: {
      number: step.stepNumber,
      type: step.messageType,
      delay: delayLabel(step.delayDays, step.delayHours),
      dueAt: new Date(due).toISOString(),
      window: window
        ? `${formatClock(window.startMinute)}–${formatClock(window.endMinute)}${window.weekdaysOnly ? ", weekdays" : ""} in the contact's time`
        : null,
    },
    audience: checked,
    input,
  };
}

function firstActiveStep(db: Db, campaignId: number) {
  return db
    .select()
    .from(campaignSteps)
    .where(and(eq(campaignSteps.campaignId, campaignId), eq(campaignSteps.isActive, true)))
    .orderBy(asc(campaignSteps.position))
    .limit(1)
    .get();
}

/** A draft's enrolled contacts after enrolment `after`, by campaign_enrollments_campaign_status_idx. */
export function selectWaitingEnrolments(db: Db, campaignId: number, after: number, limit: number) {
  const e = campaignEnrollments;
  return db
    .select({ id: e.id, contactId: e.contactId })
    .from(e)
    .where(and(eq(e.campaignId, campaignId), eq(e.status, "paused"), gt(e.id, after)))
    .orderBy(asc(e.id))
    .limit(limit);
}

/**
 * Who the first step would go to when the campaign starts now: its enrolled contacts (a draft's wait as 'paused',
 * campaign_enrollments_campaign_status_idx) and the audience it enrols at start, as runEnrollmentJob reads it — every
 * contact of the creator's scope, or the contacts search's matches in it. At most MAX_START_CHECK.
 */
async function startAudience(db: Db, c: Campaign, now: Date): Promise<{ ids: number[]; truncated: boolean }> {
  const ids = new Set<number>();
  for (let after = 0; ids.size < MAX_START_CHECK; ) {
    const page = await selectWaitingEnrolments(db, c.id, after, ENROLLED_PAGE);
    for (const r of page) ids.add(r.contactId);
    if (page.length < ENROLLED_PAGE) break;
    after = page[page.length - 1].id;
  }
  if (c.segmentId !== null && !c.audienceEnrolled) {
    // A segment: its contacts now, as the enrolment will read them at start (decision 075).
    const def = (await loadDefinitions(db, [c.segmentId])).get(c.segmentId);
    const scope = await loadUserContactScope(db, c.createdBy);
    for (let after: number | null = null; def && ids.size < MAX_START_CHECK; ) {
      const rows = await selectSegmentMemberIds(db, def, scope, now, after, ENROLLED_PAGE);
      for (const r of rows) ids.add(r.id);
      if (rows.length < ENROLLED_PAGE) break;
      after = rows[rows.length - 1].id;
    }
  } else if (c.audienceQuery !== null && !c.audienceEnrolled) {
    const scope = await loadUserContactScope(db, c.createdBy);
    let cursor: number | null = null;
    while (ids.size < MAX_START_CHECK) {
      let page: number[];
      let next: number | null;
      if (c.audienceQuery === "" && scope.kind === "all") {
        // Every contact: the primary key, newest first, as the enrolment walks it.
        const rows = await db
          .select({ id: contacts.id })
          .from(contacts)
          .where(cursor === null ? undefined : lt(contacts.id, cursor))
          .orderBy(desc(contacts.id))
          .limit(ENROLLED_PAGE);
        page = rows.map((r) => r.id);
        next = rows.length < ENROLLED_PAGE ? null : page[page.length - 1];
      } else {
        const res = await listContacts(db, { q: c.audienceQuery, after: cursor, limit: MAX_PAGE_SIZE, scope });
        page = res.contacts.map((x) => x.id);
        next = res.nextCursor;
      }
      for (const id of page) ids.add(id);
      if (next === null) break;
      cursor = next;
    }
  }
  // Reading stops at the cap: past it, the check says it judged the first MAX_START_CHECK.
  return { ids: [...ids].slice(0, MAX_START_CHECK), truncated: ids.size >= MAX_START_CHECK };
}
