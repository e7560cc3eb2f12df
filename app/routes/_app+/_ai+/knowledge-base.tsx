import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import type { ReactNode } from "react";
import { requireUser } from "~/http/guard.server";
import { Badge, Card, PageHeader } from "~/components/ui";

export const meta: MetaFunction = () => [{ title: "Knowledge Base — Helio" }];

// Nothing to load: only the session is checked.
export const loader = async (args: LoaderFunctionArgs) => {
  await requireUser(args);
  return null;
};

/**
 * Static documentation. Every sentence describes Helio as built; features the original brief promised but that are
 * not built (or not yet on a screen) are named as such instead of being described.
 */
function Section({
  title,
  children,
  status,
}: {
  title: string;
  children: ReactNode;
  status?: "not-built" | "api-only";
}) {
  return (
    <Card
      title={title}
      actions={
        status === "not-built" ? (
          <Badge tone="warning">Not built yet</Badge>
        ) : status === "api-only" ? (
          <Badge tone="info">API today, screen in progress</Badge>
        ) : undefined
      }
      data-testid="kb-card"
    >
      <div className="space-y-2 text-sm text-fg-muted [&_li]:ml-5 [&_li]:list-disc">{children}</div>
    </Card>
  );
}

export default function KnowledgeBase() {
  return (
    <div className="space-y-6">
      <PageHeader title="Knowledge Base" description="How Helio works today — and what it does not do yet." />
      <div className="grid gap-4 lg:grid-cols-2">
        <Section title="Platform overview">
          <p>
            Helio helps solar sales teams reach leads by SMS and email, run drip campaigns and keep every contact's
            consent in order.
          </p>
          <ul>
            <li>
              <strong>AI content</strong> — the Idea Generator chat and "Generate with AI" for campaign steps. With
              Workers AI or an OpenAI-compatible endpoint configured they use it; without one, a built-in offline
              composer writes the drafts.
            </li>
            <li>
              <strong>Smart campaigns</strong> — multi-step SMS/email sequences with delays, send windows and
              stop-on-reply.
            </li>
            <li>
              <strong>Testing</strong> — test sends, broadcasts with a pre-send check, and variable testing, through the
              same pipeline as real sends.
            </li>
            <li>
              <strong>Analytics</strong> — counts kept as messages are created and change status, a messages-per-day
              chart and system health.
            </li>
          </ul>
        </Section>

        <Section title="AI tools">
          <ul>
            <li>
              Idea Generator: a chat with an optional context, six quick prompts and up to three follow-up suggestions
              per answer; the conversation is kept until you clear it.
            </li>
            <li>
              "Generate with AI" in the step editor (introduction, follow-up, value, urgency) drafts a step from the
              campaign's name, description and earlier steps, and from the step's position and type (SMS or email).
            </li>
            <li>
              Every draft is checked before you see it: SMS within 160 characters, plain characters only, "Reply STOP to
              opt out" on a first text, no invented variables and no promised savings.
            </li>
            <li>
              Incoming replies are classified (interested, appointment request, pricing question, objection, not
              interested…) for auto-responders and smart alerts.
            </li>
          </ul>
        </Section>

        <Section title="Campaign management">
          <ul>
            <li>
              A campaign has a name, description and an ordered list of steps (SMS or email), each with a delay in days
              and hours.
            </li>
            <li>
              Steps are numbered 1…n automatically; deleting one renumbers the rest. A step can be made inactive and is
              then skipped.
            </li>
            <li>
              Steps can be edited while a campaign runs: messages not yet created use the new text, and changed delays
              re-time waiting contacts.
            </li>
            <li>
              Content can use variables such as {"{{firstName}}"}, {"{{lastName}}"}, {"{{company}}"} and{" "}
              {"{{salesRep}}"} (your profile's name, email and phone).
            </li>
            <li>A reply stops the sequence for that contact when stop-on-reply is on; an opt-out always stops it.</li>
            <li>
              Create a campaign, pick its contacts (or every contact matching a search), add steps, then start, pause
              and resume it on the Campaigns screen.
            </li>
          </ul>
        </Section>

        <Section title="Testing and CSV">
          <ul>
            <li>
              The Testing screen sends a manual SMS or email test, a broadcast to picked contacts after a pre-send check
              (skips, segments, quiet-hour deferrals, warnings), and renders any message for a contact to show unknown
              tokens and segments. Saved templates can be reused.
            </li>
            <li>
              Quick Upload &amp; Send (on Contacts): a .csv, .xlsx or .xls file and one message using #FIRST_NAME#,
              #LAST_NAME#, #COMPANY# and #ADDRESS#. The rows are previewed, saved as contacts (numbers already saved
              keep their record), checked like a broadcast, then sent through the same pipeline, with a progress page.
            </li>
            <li>
              Contact CSVs are uploaded on the Contacts screen, previewed, then imported; the template's header is{" "}
              <code>firstName,lastName,email,phone</code> plus optional company and address columns.
            </li>
          </ul>
        </Section>

        <Section title="Contact management">
          <ul>
            <li>
              Add, edit, delete and search contacts; phones are normalised and numbers that cannot receive texts are
              refused with the reason.
            </li>
            <li>
              CSV import with a preview: duplicate phones are skipped or updated, as you choose; export as CSV, JSON or
              text.
            </li>
            <li>
              Each contact has a page with their profile, consent and opt-out state, campaigns and the whole
              conversation, with a reply box.
            </li>
            <li>Not built: tags and segments, duplicate-merge suggestions, lead scoring.</li>
          </ul>
        </Section>

        <Section title="Savings estimates and their sources">
          <p>
            {"{{systemSize}}, {{yearOneSavings}}, {{estimatedSavings}}, {{paybackPeriod}} and {{incentiveAmount}}"} come
            from the home&apos;s bill or use (the contact page&apos;s Savings card, an import&apos;s Monthly bill,
            Monthly kWh and Utility columns, or a bill photo the lead texts, read by an AI model where one is configured
            — it fills only what is blank) and its state&apos;s public figures, unless a value is typed on the contact.
            Each contact page shows the basis of every number.
          </p>
          <ul>
            <li>
              Electricity price: U.S. Energy Information Administration (EIA), Electric Power Annual 2023, average
              residential revenue per kWh by state (Wyoming: 2022).
            </li>
            <li>
              Typical home&apos;s use: EIA Table 5A, Average Monthly Bill – Residential, 2022 (forms EIA-861). Used when
              a contact has no bill or use; the US row weighs the states by their number of homes.
            </li>
            <li>
              Sunshine: NREL Solar Summaries, average daily global horizontal irradiance by state (1998–2009). Yield per
              kW a year = sunshine × 365 × 1.10 (a south-facing roof) × 0.86 (PVWatts&apos; default losses, inverter and
              heat). DC, North Dakota, South Dakota and Alaska have no figure there and borrow a neighbour&apos;s, said
              beside their estimates.
            </li>
            <li>
              Savings assume full retail credit for exported power (net metering); where export credits are lower (such
              as California&apos;s net billing) real savings are lower. Panels are taken to lose 0.5% of their output a
              year (NREL&apos;s review of field data).
            </li>
            <li>
              Cost: your installed price per watt (Organisation), else Helio&apos;s default of $3.50, said beside each
              payback. Incentives: none unless set; the 30% federal homeowner credit (Section 25D) ended for systems
              paid for after December 31, 2025, and AI drafts are told never to promise it.
            </li>
          </ul>
        </Section>

        <Section title="Analytics">
          <ul>
            <li>
              Messages sent, delivered and responses, with delivery rate (delivered ÷ sent) and response rate (responses
              ÷ sent).
            </li>
            <li>
              A messages-per-day chart (sent, delivered, failed, received) over 7, 30 or 90 days, and a per-campaign
              funnel: enrolled → sent → delivered → replied → opted out.
            </li>
            <li>
              System health measured live: database round trip, send backlog, last scheduled run, provider configuration
              and last errors.
            </li>
            <li>
              The compliance report (Analytics → Compliance report): opt-outs and opt-ins per day with their source,
              sends refused and why, sends held for quiet hours, and the consent evidence as CSV — for everyone, or one
              contact from their page — with the text that opted them out.
            </li>
            <li>Not built: email open and click rates, A/B test results, revenue attribution and ROI.</li>
          </ul>
        </Section>

        <Section title="Smart alert categories">
          <ul>
            <li>
              Incoming replies are matched against keyword banks and alert profiles and get a category: high-priority
              lead, appointment request, objection or information request.
            </li>
            <li>
              The profile's staff are emailed; an alert nobody acknowledges in time is sent again to the sales alert
              address. The bell shows unacknowledged alerts.
            </li>
            <li>
              Auto-responders answer matching replies by keyword, sentiment or intent; STOP, START and HELP are always
              handled by Helio itself and never auto-answered.
            </li>
            <li>Not built: lead scoring.</li>
          </ul>
        </Section>

        <Section title="Best practices">
          <ul>
            <li>Send a test to yourself before any broadcast or campaign.</li>
            <li>
              Keep SMS short: the send API reports the encoding and segment count; emoji switch a message to UCS-2 and
              cut a segment to 70 characters.
            </li>
            <li>
              Identify your company in the first message and keep your profile's name, email and phone current — they
              fill {"{{salesRep…}}"}.
            </li>
          </ul>
        </Section>

        <Section title="Navigation guide">
          <ul>
            <li>
              Dashboard — stats and shortcuts. Messages — every message, searchable, with incoming/outgoing/failed tabs.
            </li>
            <li>Contacts — manage, import and export. Analytics — figures, chart and health.</li>
            <li>
              User Analytics (superusers) — users, sign-ins, activity, and user management. Your name in the sidebar
              opens your profile and password.
            </li>
            <li>
              Campaigns — sequences and their steps. Testing — tests, broadcasts and templates. Idea Generator — AI
              chat.
            </li>
            <li>Auto-Responder, Smart Alerts and Test Alerts — answer and route incoming replies.</li>
          </ul>
        </Section>

        <Section title="Roles">
          <ul>
            <li>
              <strong>User</strong> — contacts, messages, campaigns, analytics; edits their own profile and password.
            </li>
            <li>
              <strong>Superuser</strong> — everything a user can do, plus User Analytics and user management: create
              accounts (a one-time password, changed at first sign-in), change roles, deactivate or reactivate (signs
              the user out at once) and reset passwords. The last active superuser cannot be demoted or deactivated.
            </li>
            <li>Accounts are issued by an administrator; there is no self sign-up.</li>
          </ul>
        </Section>

        <Section title="Compliance reminders">
          <p className="font-medium text-fg">SMS</p>
          <ul>
            <li>
              Text only people who gave prior express written consent to marketing texts (47 CFR 64.1200(a)(2)), and
              identify your company.
            </li>
            <li>
              Replies such as STOP opt the contact out at once; Helio refuses further marketing texts to them on every
              path, and START opts them back in.
            </li>
            <li>
              What a STOP covers follows the FCC (47 CFR 64.1200(a)(10)): until January 31, 2027, a STOP ends the kind
              of texts it answered, so with an informational number for appointment texts (Compliance → “What a STOP
              covers”; register it as its own 10DLC campaign) a STOP to your other numbers ends marketing and your own
              texts while the contact&apos;s appointment confirmation and reminders still come from it. A STOP to that
              number, or any STOP without one, ends everything — carriers block every text from the number a STOP
              reached. From January 31, 2027 every STOP ends every text by itself; a superuser can choose that now.
            </li>
            <li>
              Consent has a purpose. A lead (the webhook&apos;s consent_purpose) or an imported list (“Consent covers”)
              that agreed to appointment texts only gets those and your own texts, never a campaign, broadcast, Quick
              Send or follow-up; the pre-send check counts them as skipped and the TCPA packet says what each consent
              covered.
            </li>
            <li>
              Marketing texts go out only inside the contact&apos;s calling window in their local time: 8 a.m. to 9 p.m.
              federally (47 CFR 64.1200(c)(1)), shorter or closed on Sundays and holidays in some states (the table,
              with each statute, is on the Compliance report). Outside it they are deferred, never dropped, and a text
              paced to go out after the window closes waits too. A contact whose state cannot be told from its record or
              ZIP is held to every state&apos;s rule at once (weekdays 9 a.m.–6 p.m., Saturdays 10 a.m.–5 p.m., no
              Sundays or federal holidays, at most 3 marketing texts a day). The statutes were reviewed by the Helio
              team, not by a lawyer: confirm them with counsel.
            </li>
            <li>
              Florida (Fla. Stat. §501.059(8)(a)) and Oklahoma (Okla. Stat. tit. 15, §775C.4) allow at most 3 sales
              texts to one number in 24 hours. Helio counts every campaign, broadcast, Quick Send and auto-responder
              follow-up to the number and defers the fourth until the oldest of the three is 24 hours old. Your own
              texts in a conversation and appointment texts are not counted.
            </li>
            <li>
              Links through public shorteners (bit.ly, tinyurl.com and the like) are refused in texts, campaign steps
              and SMS templates: carriers filter them (CTIA Messaging Principles and Best Practices). Use the full link
              or your own domain.
            </li>
            <li>
              Links in texts to contacts go out on your own domain (Organisation → Links in texts: a link domain you
              point at Helio, else Helio&apos;s own address), one link per recipient, so each campaign step shows its
              clicks, the contact&apos;s owner gets a push on the first click, and a Lead trigger can start a sequence
              when a contact clicks. The link opens the page you wrote, nothing else; link previews and bots are not
              counted. Tests, alerts and STOP/HELP answers go exactly as written; turn tracking off there to send every
              link as written.
            </li>
            <li>
              When carriers filter a sending number (Twilio errors 30007 filtered, 30034 10DLC number not registered,
              30032 toll-free number not verified) on 10 or more of its texts in a day, and at least 2% of what it sent
              (the thresholds are yours to set on the Compliance report), Helio pauses that number&apos;s campaigns,
              broadcasts, Quick Sends and follow-ups and emails the alert address. The texts wait, held; a superuser
              resumes the number on the Compliance report once the content, opt-in or registration is fixed. Your own
              texts and appointment texts still go.
            </li>
            <li>
              Landlines cannot receive texts. With Twilio connected, set “Line-type lookups per day” on Organisation (0,
              the default, is off; each lookup costs about $0.008): Helio looks up each contact&apos;s number once,
              newest first, and marks landlines not sendable, so no campaign, broadcast or Quick Send texts them. A
              changed number is looked up again.
            </li>
            <li>
              Texts from a US local number need a registered 10DLC brand and campaign (The Campaign Registry, under the
              CTIA Messaging Principles); carriers block the rest (Twilio 30034). Compliance → 10DLC registration drafts
              the campaign from your settings and real templates, flags what reviewers reject (samples without opt-out
              language — when none of your texts has it, the draft adds it to the first sample and says so — or without
              your company name, an opt-in description that does not say how consent is given, link shorteners), and
              with Twilio connected shows each number&apos;s campaign status; the pre-send check warns when a number has
              no verified campaign. A toll-free number needs an approved toll-free verification instead (Twilio 30032):
              the same check reads it and warns until it is approved.
            </li>
            <li>
              Keep the proof of consent. Leads from a lead source&apos;s webhook keep the seller, the form&apos;s
              wording, its page and the homeowner&apos;s IP; for an imported list, fill in “Consent obtained by” and
              “Consent wording” on the import preview, and each contact the file adds carries that record into its TCPA
              packet.
            </li>
            <li>
              Before you send, check. A broadcast&apos;s Check (Testing Playground, Quick Upload) and a draft
              campaign&apos;s Check (its card on Campaign Sequences, for the first step) show who gets it, who is
              skipped and why (opted out, not sendable, a missing value), each contact&apos;s arrival in their local
              time with the rule that holds it, segments and cost, and the warnings above; “Download the list” gives it
              one row per contact. Per contact, the TCPA packet (the contact page) gathers the consent record, every
              message with the contact&apos;s local time, every hold and every opt-out.
            </li>
            <li>
              The 30% federal tax credit for home solar (Section 25D) ended for systems paid for after December 31,
              2025: Helio&apos;s AI drafts never offer it, and {"{{incentiveAmount}}"} is for state or utility
              incentives.
            </li>
          </ul>
          <p className="font-medium text-fg">Email (CAN-SPAM)</p>
          <ul>
            <li>
              Every email carries your physical address (COMPANY_ADDRESS) and an unsubscribe link that works without
              signing in, including one-click unsubscribe.
            </li>
            <li>
              The law requires honouring unsubscribe requests within 10 business days (15 U.S.C. §7704(a)(4)) and a
              valid postal address in every commercial email (§7704(a)(5)); Helio applies unsubscribes immediately.
            </li>
          </ul>
        </Section>
      </div>
    </div>
  );
}
