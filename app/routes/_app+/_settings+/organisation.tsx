import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { requireUser } from "~/http/guard.server";
import { CAP_NAMES, CAPS, type CapName } from "~/caps/caps";
import { readCapCounters } from "~/caps/read-cap-counters.server";
import { getTwoFactorPolicy, setTwoFactorPolicy } from "~/auth/manage-two-factor.server";
import { formAction } from "~/http/form-action.server";
import { withDefaults } from "~/http/form-schema";
import { Alert, Button, Card, Checkbox, Field, PageHeader } from "~/components/ui";
import {
  loadOrganisationSettings,
  MAX_RETENTION_MONTHS,
  MIN_RETENTION_MONTHS,
  saveLinkTracking,
  saveOrgSettings,
} from "~/messaging/org-settings.server";
import { LINK_DOMAIN_HINT, MAX_LINK_DOMAIN } from "~/messaging/tracked-links";
import { redirectWithToast } from "~/http/toast.server";
import { DEFAULT_SMS_SEGMENT_PRICE, MAX_SMS_SEGMENT_PRICE, priceMicros } from "~/messaging/sms-price";
import { everyUserSeesAllContacts, setEveryUserSeesAllContacts } from "~/contacts/contact-scope.server";
import { formatCount } from "~/lib/format-count";
import { fieldProps } from "~/components/form-failure";
import {
  DEFAULT_COST_PER_WATT,
  DEFAULT_ESCALATION_PCT,
  MAX_COST_PER_WATT,
  MAX_ESCALATION_PCT,
  MAX_INCENTIVE_NOTE,
  MAX_STATE_INCENTIVE_DOLLARS,
  MIN_COST_PER_WATT,
} from "~/savings/estimate-savings";
import { loadSavingsAssumptions } from "~/savings/savings-data.server";
import { saveSavingsSettings } from "~/savings/save-savings-settings.server";
import { listStateIncentives, setStateIncentive } from "~/savings/set-state-incentive.server";

const ESCALATION_MESSAGE = `Yearly rise in power prices: a percentage from 0 to ${MAX_ESCALATION_PCT}`;
const COST_MESSAGE = `Price per watt: a dollar amount from ${MIN_COST_PER_WATT} to ${MAX_COST_PER_WATT}, e.g. 3.25`;

export const meta: MetaFunction = () => [{ title: "Organisation — Helio" }];

// Superusers only: these values go into every message that uses {{company}}, {{companyPhone}} or {{website}}; the
// retention decides when messages move from D1 to the R2 archive (decision 017).
const retentionMessage = `Keep messages for ${MIN_RETENTION_MONTHS} to ${MAX_RETENTION_MONTHS} months`;
const priceMessage = `SMS price per segment: a dollar amount from 0 to ${MAX_SMS_SEGMENT_PRICE}, e.g. ${DEFAULT_SMS_SEGMENT_PRICE}`;
const schema = z.object({
  company: z.string().trim().max(200, "Company name must be at most 200 characters").default(""),
  companyPhone: z.string().trim().max(40, "Phone must be at most 40 characters").default(""),
  website: z
    .string()
    .trim()
    .max(300, "Website must be at most 300 characters")
    .refine((v) => v === "" || /^https?:\/\/\S+$/.test(v), "Website must start with http:// or https://")
    .default(""),
  messageRetentionMonths: z.coerce
    .number({ invalid_type_error: retentionMessage })
    .int(retentionMessage)
    .min(MIN_RETENTION_MONTHS, retentionMessage)
    .max(MAX_RETENTION_MONTHS, retentionMessage),
  // Absent (an older form) leaves the price as it is; empty puts the default back.
  smsSegmentPrice: z
    .string()
    .trim()
    .max(20, priceMessage)
    .refine((v) => v === "" || priceMicros(v) !== null, priceMessage)
    .optional(),
});
const FIELDS = ["company", "companyPhone", "website", "messageRetentionMonths"] as const;
// The automatic channels' caps (decision 021): whole numbers, 0 switches the channel off.
const capSchema = z.object(
  Object.fromEntries(
    CAP_NAMES.map((n) => {
      const message = `${CAPS[n].label}: enter a whole number from 0 to ${formatCount(CAPS[n].max)}`;
      return [
        n,
        z.coerce.number({ invalid_type_error: message }).int(message).min(0, message).max(CAPS[n].max, message),
      ];
    }),
  ) as Record<CapName, z.ZodNumber>,
);

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args, { role: "superuser" });
  const [settings, twoFactor, counters, everyUserSeesAll, savings, incentives] = await Promise.all([
    loadOrganisationSettings(args.context.db),
    getTwoFactorPolicy(args.context.db),
    readCapCounters(args.context.db, args.context.clock()),
    everyUserSeesAllContacts(args.context.db),
    loadSavingsAssumptions(args.context.db),
    listStateIncentives(args.context.db),
  ]);
  return {
    ...settings,
    twoFactor,
    held: counters.held,
    aiBudget: counters.aiBudget,
    everyUserSeesAll,
    savings,
    incentives,
  };
}

// Three forms: the message settings (no intent; a form without a cap's field — an older page, a script — leaves that
// cap as it is), the two-factor policy and who sees which contacts (decision 048) — each a checkbox (present = on) in
// its own form, so saving one never touches the others.
const INCENTIVE_MESSAGE = `Incentive: whole dollars from 0 to ${formatCount(MAX_STATE_INCENTIVE_DOLLARS)}`;
const organisationForm = withDefaults(
  Object.fromEntries(FIELDS.map((k) => [k, ""])),
  z.discriminatedUnion("intent", [
    schema.merge(capSchema.partial()).extend({ intent: z.literal("settings") }),
    z.object({ intent: z.literal("two-factor-policy"), requireSuperuserTwoFactor: z.unknown() }),
    z.object({ intent: z.literal("contact-visibility"), everyUserSeesAll: z.unknown() }),
    z.object({
      intent: z.literal("savings"),
      escalationPct: z.coerce
        .number({ invalid_type_error: ESCALATION_MESSAGE })
        .min(0, ESCALATION_MESSAGE)
        .max(MAX_ESCALATION_PCT, ESCALATION_MESSAGE),
      costPerWatt: z
        .string()
        .trim()
        .max(20, COST_MESSAGE)
        .transform((v) => v.replace(/^\$/, ""))
        .refine((v) => v === "" || /^\d+(\.\d{1,2})?$/.test(v), COST_MESSAGE)
        .transform((v) => (v === "" ? null : Number(v)))
        .refine((n) => n === null || (n >= MIN_COST_PER_WATT && n <= MAX_COST_PER_WATT), COST_MESSAGE)
        .default(""),
    }),
    z.object({
      intent: z.literal("incentive"),
      incentiveState: z.string().trim().max(2, "Choose a state").min(2, "Choose a state"),
      incentiveDollars: z
        .string()
        .trim()
        .max(20, INCENTIVE_MESSAGE)
        .transform((v) => v.replace(/^\$/, "").replaceAll(",", ""))
        .refine((v) => /^\d+$/.test(v), INCENTIVE_MESSAGE)
        .transform(Number)
        .refine((n) => n <= MAX_STATE_INCENTIVE_DOLLARS, INCENTIVE_MESSAGE),
      incentiveNote: z
        .string()
        .trim()
        .max(MAX_INCENTIVE_NOTE, `Source: at most ${MAX_INCENTIVE_NOTE} characters`)
        .transform((v) => v || null)
        .default(""),
    }),
    z.object({
      intent: z.literal("links"),
      trackLinks: z.unknown(),
      linkDomain: z.string().trim().max(MAX_LINK_DOMAIN, `Link domain: ${LINK_DOMAIN_HINT}`).default(""),
    }),
  ]),
  (v) => ({
    ...v,
    intent:
      v.intent === "two-factor-policy" ||
      v.intent === "contact-visibility" ||
      v.intent === "links" ||
      v.intent === "savings" ||
      v.intent === "incentive"
        ? v.intent
        : "settings",
  }),
);

export async function action(args: ActionFunctionArgs) {
  return formAction(args, { schema: organisationForm, role: "superuser" }, async (input, { user: me, actor }) => {
    if (input.intent === "two-factor-policy") {
      const on = input.requireSuperuserTwoFactor === "on";
      await setTwoFactorPolicy(
        args.context.db,
        on,
        { ...actor, twoFactorEnabled: me.twoFactorEnabled },
        args.context.clock(),
      );
      return redirectWithToast(args.context, "/organisation", {
        title: on ? "Two-factor is now required for superusers" : "Two-factor is no longer required for superusers",
      });
    }
    if (input.intent === "links") {
      const track = input.trackLinks === "on";
      await saveLinkTracking(args.context.db, { track, domain: input.linkDomain }, args.context.clock());
      return redirectWithToast(args.context, "/organisation", {
        title: track ? "Links in texts are tracked" : "Links in texts go as written",
      });
    }
    if (input.intent === "savings") {
      const { escalationPct, costPerWatt } = input;
      await saveSavingsSettings(args.context.db, { escalationPct, costPerWatt }, actor, args.context.clock());
      return redirectWithToast(args.context, "/organisation", { title: "Savings assumptions saved" });
    }
    if (input.intent === "incentive") {
      const { incentiveState: state, incentiveDollars: dollars, incentiveNote: note } = input;
      await setStateIncentive(args.context.db, { state, dollars, note }, actor, args.context.clock());
      return redirectWithToast(args.context, "/organisation", {
        title: dollars ? `Incentive for ${state} saved` : `Incentive for ${state} cleared`,
      });
    }
    if (input.intent === "contact-visibility") {
      const on = input.everyUserSeesAll === "on";
      await setEveryUserSeesAllContacts(args.context.db, on, actor, args.context.clock());
      return redirectWithToast(args.context, "/organisation", {
        title: on ? "Every user now sees all contacts" : "Users now see their own and unassigned contacts",
      });
    }
    const {
      intent: _settings,
      company,
      companyPhone,
      website,
      messageRetentionMonths,
      smsSegmentPrice,
      ...caps
    } = input;
    await saveOrgSettings(
      args.context.db,
      { company, companyPhone, website, messageRetentionMonths, smsSegmentPrice, caps },
      args.context.clock(),
    );
    return redirectWithToast(args.context, "/organisation", { title: "Organisation settings saved" });
  });
}

export default function Organisation() {
  const {
    settings,
    messageRetentionMonths,
    smsSegmentPrice,
    links,
    twoFactor,
    capLimits,
    held,
    aiBudget,
    everyUserSeesAll,
    savings,
    incentives,
  } = useLoaderData<typeof loader>();
  const n = (x: number) => formatCount(x);
  const actionData = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  return (
    <div className="space-y-6">
      <PageHeader
        title="Organisation"
        description="Values for {{company}}, {{companyPhone}} and {{website}} in every message, how long messages are kept, and the limits on automatic messages."
      />
      <Card>
        <Form method="post" className="max-w-lg space-y-4">
          {actionData?.message ? <Alert tone="danger">{actionData.message}</Alert> : null}
          <Field
            name="company"
            label="Company name"
            hint="Used for {{company}} when the contact has no company of their own"
            defaultValue={settings.company ?? ""}
          />
          <Field
            name="companyPhone"
            label="Company phone"
            type="tel"
            hint="{{companyPhone}}"
            defaultValue={settings.companyPhone ?? ""}
          />
          <Field name="website" label="Website" type="url" hint="{{website}}" defaultValue={settings.website ?? ""} />
          <Field
            name="messageRetentionMonths"
            label="Keep messages for (months)"
            type="number"
            min={MIN_RETENTION_MONTHS}
            max={MAX_RETENTION_MONTHS}
            required
            hint="Older messages move to monthly archive files that superusers download from the Message Center; counts and analytics keep them"
            defaultValue={String(messageRetentionMonths)}
          />
          <Field
            name="smsSegmentPrice"
            label="SMS price per segment (USD)"
            inputMode="decimal"
            hint={`What one text segment costs you, carrier fees included; the pre-send check estimates a send's cost with it. Empty: ${DEFAULT_SMS_SEGMENT_PRICE} (Twilio's US price plus a typical 10DLC carrier fee).`}
            defaultValue={smsSegmentPrice}
          />
          <fieldset className="space-y-4 rounded-md border border-border p-3" data-testid="cap-settings">
            <legend className="px-1 text-sm font-semibold">Limits on automatic messages and AI</legend>
            <p className="text-sm text-fg-muted" data-testid="ai-budget-used">
              AI today: {n(aiBudget.used)} of {n(aiBudget.limit)} model calls used; {n(held.ai_budget)} answered offline
              past the budget, {n(held.ai_classify)} replies classified offline past a number&apos;s hourly allowance
            </p>
            {CAP_NAMES.map((name) => (
              <Field
                key={name}
                name={name}
                label={CAPS[name].label}
                type="number"
                min={0}
                max={CAPS[name].max}
                required
                hint={CAPS[name].hint}
                defaultValue={String(capLimits[name])}
              />
            ))}
          </fieldset>
          <Button type="submit" disabled={pending}>
            {pending ? "Saving..." : "Save"}
          </Button>
        </Form>
      </Card>
      <FlagCard
        title="Links in texts"
        description="Links in texts to contacts go out on your own domain, one per recipient, so you see who opened what: the click count on each campaign step, a push to the contact's owner on the first click, and “A contact clicks a link” on Lead triggers."
        intent="links"
        name="trackLinks"
        checked={links.track}
        label="Track links in texts"
        hint="Off: links go exactly as written and nothing is counted. Tests, alerts and STOP/HELP answers are never rewritten."
        save="Save link settings"
        pending={pending}
      >
        <Field
          label="Link domain"
          maxLength={MAX_LINK_DOMAIN}
          placeholder="go.yoursolar.com"
          hint={LINK_DOMAIN_HINT}
          {...fieldProps(actionData, "linkDomain", links.domain)}
        />
      </FlagCard>
      <Card
        title="Savings estimates"
        description="The Solar variables ({{systemSize}}, {{yearOneSavings}}, {{estimatedSavings}}, {{paybackPeriod}}, {{incentiveAmount}}) come from each home's bill and its state's public figures (EIA prices and use, NREL sunshine) when the contact has none typed. The Knowledge Base names every source."
      >
        <Form method="post" className="max-w-lg space-y-3" data-testid="savings">
          <input type="hidden" name="intent" value="savings" />
          <Field
            label="Yearly rise in power prices (%)"
            inputMode="decimal"
            required
            hint={`0 to ${MAX_ESCALATION_PCT}; the 25-year savings grow by it (Helio starts at ${DEFAULT_ESCALATION_PCT}).`}
            {...fieldProps(actionData, "escalationPct", String(savings.escalationPct))}
          />
          <Field
            label="Your installed price per watt ($)"
            inputMode="decimal"
            placeholder={DEFAULT_COST_PER_WATT.toFixed(2)}
            hint={`What a home system costs per watt before incentives, ${MIN_COST_PER_WATT} to ${MAX_COST_PER_WATT}; the payback uses it. Empty: Helio's default of $${DEFAULT_COST_PER_WATT.toFixed(2)}, said beside every payback.`}
            {...fieldProps(actionData, "costPerWatt", savings.costIsDefault ? "" : String(savings.costPerWatt))}
          />
          <Button type="submit" variant="outline" disabled={pending}>
            Save savings assumptions
          </Button>
        </Form>
        <Form method="post" className="mt-6 max-w-lg space-y-3" data-testid="state-incentive">
          <input type="hidden" name="intent" value="incentive" />
          <p className="text-sm font-medium">A state&apos;s incentive</p>
          <p className="text-sm text-fg-muted" data-testid="incentives-set">
            {incentives.set.length
              ? incentives.set.map((i) => `${i.state} $${n(i.dollars)}${i.note ? ` (${i.note})` : ""}`).join(" · ")
              : "None set: every estimate counts $0 (the federal homeowner credit ended for systems paid for after 2025)."}
          </p>
          <Field
            as="select"
            label="State"
            options={incentives.states}
            {...fieldProps(actionData, "incentiveState", "CA")}
          />
          <Field
            label="Incentive ($)"
            inputMode="numeric"
            hint={`Whole dollars, 0 to ${n(MAX_STATE_INCENTIVE_DOLLARS)}, taken off the system's cost in that state's estimates; 0 clears it.`}
            {...fieldProps(actionData, "incentiveDollars")}
          />
          <Field
            label="Source (shown in the basis)"
            maxLength={MAX_INCENTIVE_NOTE}
            placeholder="State rebate program, 2026"
            {...fieldProps(actionData, "incentiveNote")}
          />
          <Button type="submit" variant="outline" disabled={pending}>
            Save incentive
          </Button>
        </Form>
      </Card>
      <FlagCard
        title="Security"
        description="Superusers manage users and see every report: a stolen password should not be enough."
        intent="two-factor-policy"
        name="requireSuperuserTwoFactor"
        checked={twoFactor.requireForSuperusers}
        label="Require two-factor authentication for superusers"
        hint="A superuser without it is sent to set it up before using the app."
        save="Save security settings"
        pending={pending}
      />
      <FlagCard
        title="Contacts"
        description="By default a user sees and works their own contacts and those with no owner; superusers see all."
        intent="contact-visibility"
        name="everyUserSeesAll"
        checked={everyUserSeesAll}
        label="Every user sees all contacts"
        hint="Their messages and conversations too. Changing another user's contact owner stays with superusers."
        save="Save contact settings"
        pending={pending}
      />
    </div>
  );
}

/** One on/off organisation setting: its own form (a checkbox, present = on), so saving it touches nothing else. */
function FlagCard(p: {
  title: string;
  description: string;
  intent: string;
  name: string;
  checked: boolean;
  label: string;
  hint: string;
  save: string;
  pending: boolean;
  children?: React.ReactNode;
}) {
  return (
    <Card title={p.title} description={p.description}>
      <Form method="post" className="space-y-3" data-testid={p.intent}>
        <input type="hidden" name="intent" value={p.intent} />
        <Checkbox name={p.name} value="on" defaultChecked={p.checked} label={p.label} />
        <p className="text-xs text-fg-muted">{p.hint}</p>
        {p.children}
        <Button type="submit" variant="outline" disabled={p.pending}>
          {p.save}
        </Button>
      </Form>
    </Card>
  );
}
