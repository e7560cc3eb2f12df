import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { BellRing, BookText, Brain } from "lucide-react";
import type { ReactNode } from "react";
import {
  ALERT_TOASTS,
  BANK_CATEGORIES,
  BANK_NOT_FOUND,
  BANK_PRIORITIES,
  DEPARTMENTS,
  parseBank,
  parseContactInfo,
  parseProfile,
  PLACEHOLDER_PHONE,
  PROFILE_NOT_FOUND,
  PROFILE_PRIORITIES,
} from "~/responders/alerts/alert-schema";
import {
  CLASSIFICATION_NOT_FOUND,
  listRecentClassifications,
  markClassification,
} from "~/responders/alerts/ai-monitoring.server";
import {
  createBank,
  createProfile,
  deleteBank,
  deleteProfile,
  listBanks,
  listProfiles,
  updateBank,
  updateProfile,
} from "~/responders/alerts/manage-alert-settings.server";
import { clearStaffSuppression, listSuppressedStaffAddresses } from "~/responders/alerts/staff-suppressions.server";
import { requireUser } from "~/http/guard.server";
import { readCapCounters } from "~/caps/read-cap-counters.server";
import {
  ActiveBadge,
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  ConfirmDialog,
  EmptyState,
  Field,
  PageHeader,
  PriorityBadge,
  RecordCard,
  RecordEditor,
  RecordForm,
  Tabs,
  VerdictButtons,
} from "~/components/ui";
import { AppError } from "~/lib/app-error";
import { formAction } from "~/http/form-action.server";
import { intentError } from "~/http/form-schema";
import { failureByIntent, failureToast } from "~/components/form-failure";
import { z } from "zod";
import { parseId } from "~/lib/ids";
import { redirectWithToast } from "~/http/toast.server";
import { formatCount } from "~/lib/format-count";

export const meta: MetaFunction = () => [{ title: "Smart Alerts — Helio" }];

const TABS = ["profiles", "banks", "monitoring"] as const;
type Tab = (typeof TABS)[number];
const TAB_LABEL: Record<Tab, string> = {
  profiles: "Alert Profiles",
  banks: "Keyword Banks",
  monitoring: "AI Monitoring",
};

function contactOf(info: string | null) {
  try {
    const c = parseContactInfo(info);
    // The placeholder phone is what the SPEC's client stores when none was given: not a real number to show.
    return { email: c.email, phone: c.phone === PLACEHOLDER_PHONE ? null : c.phone };
  } catch {
    return { email: null, phone: null };
  }
}

/** `?tab=` picks the panel; `?edit=<id>` fills the tab's form with a record; `?delete=<id>` asks to confirm. */
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const url = new URL(args.request.url);
  const tabParam = url.searchParams.get("tab") ?? "";
  const tab: Tab = (TABS as readonly string[]).includes(tabParam) ? (tabParam as Tab) : "profiles";
  const db = args.context.db;
  const salesAlertEmail = args.context.alerts().salesAlertEmail;
  const [profiles, banks, recent, suppressedStaff, caps] = await Promise.all([
    listProfiles(db),
    listBanks(db),
    tab === "monitoring" ? listRecentClassifications(db) : [],
    tab === "profiles" ? listSuppressedStaffAddresses(db, salesAlertEmail) : [],
    readCapCounters(db, args.context.clock()),
  ]);
  const editId = parseId(url.searchParams.get("edit"));
  const deleteId = parseId(url.searchParams.get("delete"));
  return {
    tab,
    profiles: profiles.map((p) => ({ ...p, ...contactOf(p.contactInfo) })),
    banks,
    recent,
    suppressedStaff,
    editId,
    deleteId,
    heldEmails: caps.held.alert_email,
    emailCap: caps.limits.alertEmailPerConversation,
  };
}

type Intent =
  | "create-profile"
  | "update-profile"
  | "toggle-profile"
  | "delete-profile"
  | "create-bank"
  | "update-bank"
  | "toggle-bank"
  | "delete-bank"
  | "mark"
  | "clear-suppression";
const FAILURE: Record<Intent, string> = {
  "create-profile": ALERT_TOASTS.createProfile,
  "update-profile": ALERT_TOASTS.updateProfile,
  "toggle-profile": ALERT_TOASTS.updateProfile,
  "delete-profile": ALERT_TOASTS.deleteProfile,
  "create-bank": ALERT_TOASTS.createBank,
  "update-bank": ALERT_TOASTS.updateBank,
  "toggle-bank": ALERT_TOASTS.updateBank,
  "delete-bank": ALERT_TOASTS.deleteBank,
  mark: "Failed to save the mark",
  "clear-suppression": "Failed to clear the unsubscribe",
};
const SUCCESS: Record<Intent, string> = {
  "create-profile": "Alert profile created",
  "update-profile": "Alert profile updated",
  "toggle-profile": "Alert profile updated",
  "delete-profile": "Alert profile deleted",
  "create-bank": "Keyword bank created",
  "update-bank": "Keyword bank updated",
  "toggle-bank": "Keyword bank updated",
  "delete-bank": "Keyword bank deleted",
  mark: "Mark saved",
  "clear-suppression": "Unsubscribe cleared",
};

function requireRecordId(raw: unknown, notFound: string) {
  const id = parseId(raw);
  if (id === null) throw new AppError("not_found", notFound);
  return id;
}

/** Create, edit, activate/deactivate and delete profiles and banks; mark a classification right or wrong. */
const INTENTS = Object.keys(FAILURE) as [Intent, ...Intent[]];
// Every form of the page posts its intent and its own fields (checked by parseProfile / parseBank and the domain).
const alertsForm = z
  .object({ intent: z.enum(INTENTS, intentError("Choose an action on the page.")) })
  .catchall(z.unknown());

export async function action(args: ActionFunctionArgs) {
  const { context } = args;
  const title = (intent: string | undefined) =>
    intent && intent in FAILURE ? FAILURE[intent as Intent] : "Unknown action";
  return formAction(args, { schema: alertsForm, title }, async (form) => {
    const { intent } = form;
    const values = Object.fromEntries(
      Object.entries(form).filter((e): e is [string, string] => typeof e[1] === "string"),
    );
    const db = context.db;
    const now = context.clock();
    // An unticked checkbox posts nothing: absent means off.
    const bankBody = (): Record<string, string> => ({ ...values, useAI: "useAI" in form ? "true" : "false" });
    switch (intent) {
      case "create-profile":
        await createProfile(db, parseProfile({ ...values, isActive: "true" }), now);
        break;
      case "update-profile": {
        const id = requireRecordId(form.id, PROFILE_NOT_FOUND);
        const { name, department, keywords, priority, responseTemplate, escalationTime, email, phone } = values;
        const { ownerEscalationMinutes } = values;
        await updateProfile(
          db,
          id,
          {
            name,
            department,
            keywords,
            priority,
            responseTemplate,
            escalationTime,
            ownerEscalationMinutes,
            contactInfo: JSON.stringify({ email, phone }),
          },
          now,
        );
        break;
      }
      case "toggle-profile":
        await updateProfile(
          db,
          requireRecordId(form.id, PROFILE_NOT_FOUND),
          { isActive: form.isActive === "true" },
          now,
        );
        break;
      case "delete-profile":
        await deleteProfile(db, requireRecordId(form.id, PROFILE_NOT_FOUND));
        break;
      case "create-bank":
        await createBank(db, parseBank({ ...bankBody(), isActive: "true" }), now);
        break;
      case "update-bank": {
        const id = requireRecordId(form.id, BANK_NOT_FOUND);
        const { category, keywords, priority, alertProfileId, autoResponse, aiPrompt, useAI } = bankBody();
        await updateBank(
          db,
          id,
          { category, keywords, priority, alertProfileId: alertProfileId ?? "", autoResponse, aiPrompt, useAI },
          now,
        );
        break;
      }
      case "toggle-bank":
        await updateBank(db, requireRecordId(form.id, BANK_NOT_FOUND), { isActive: form.isActive === "true" }, now);
        break;
      case "delete-bank":
        await deleteBank(db, requireRecordId(form.id, BANK_NOT_FOUND));
        break;
      case "mark": {
        const verdict = form.verdict;
        if (verdict !== "right" && verdict !== "wrong")
          throw new AppError("validation", "Mark the classification right or wrong", { field: "verdict" });
        await markClassification(db, requireRecordId(form.id, CLASSIFICATION_NOT_FOUND), verdict);
        break;
      }
      case "clear-suppression":
        await clearStaffSuppression(db, (values.address ?? "").slice(0, 254), context.alerts().salesAlertEmail);
        break;
    }
    const tab = intent.endsWith("bank") ? "banks" : intent === "mark" ? "monitoring" : "profiles";
    return redirectWithToast(context, `/smart-alerts?tab=${tab}`, { title: SUCCESS[intent] });
  });
}

function Keywords({ words, shown }: { words: string[]; shown: number }) {
  return (
    <p className="flex flex-wrap gap-1" aria-label="Keywords">
      {words.slice(0, shown).map((k) => (
        <Badge key={k} tone="accent">
          {k}
        </Badge>
      ))}
      {words.length > shown ? <span className="text-xs text-fg-muted">+{words.length - shown} more</span> : null}
    </p>
  );
}

/** `?tab=…&delete=<id>`: the record's delete confirmation, posting to the tab so the action redirects back to it. */
function DeleteDialog({
  noun,
  tab,
  intent,
  id,
  failed,
  children,
}: {
  noun: string;
  tab: Tab;
  intent: "delete-profile" | "delete-bank";
  id: number;
  failed: unknown;
  children: ReactNode;
}) {
  return (
    <ConfirmDialog
      title={`Delete ${noun}`}
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      destructive
      action={`/smart-alerts?tab=${tab}`}
      closeTo={`?tab=${tab}`}
      fields={{ intent, id: String(id) }}
      error={failureByIntent(failed, intent).form ? failureToast(failed) : null}
    >
      <p>{children}</p>
    </ConfirmDialog>
  );
}

export default function SmartAlerts() {
  const { tab, profiles, banks, recent, suppressedStaff, editId, deleteId, heldEmails, emailCap } =
    useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const items = TABS.map((t) => ({
    value: t,
    label: TAB_LABEL[t],
    href: `?tab=${t}`,
    count: t === "profiles" ? profiles.length : t === "banks" ? banks.length : undefined,
  }));
  const failed = reply && !reply.ok ? reply : null;
  // After a failed post the form shows what was sent, so nothing typed is lost (JS or not).
  const sent = (intent: string) =>
    failed && failed.intent === intent ? (failed.values as Record<string, string | undefined>) : null;
  const errorsFor = (intent: string, name: string) =>
    failed && failed.intent === intent && failed.field === name ? [failed.message] : undefined;

  const editProfile = tab === "profiles" && editId !== null ? profiles.find((p) => p.id === editId) : undefined;
  const editBank = tab === "banks" && editId !== null ? banks.find((b) => b.id === editId) : undefined;
  const delProfile = tab === "profiles" && deleteId !== null ? profiles.find((p) => p.id === deleteId) : undefined;
  const delBank = tab === "banks" && deleteId !== null ? banks.find((b) => b.id === deleteId) : undefined;

  const profileIntent = editProfile ? "update-profile" : "create-profile";
  const pv =
    sent(profileIntent) ??
    (editProfile
      ? {
          name: editProfile.name,
          department: editProfile.department,
          keywords: editProfile.keywords.join(", "),
          email: editProfile.email ?? "",
          phone: editProfile.phone ?? "",
          priority: editProfile.priority,
          escalationTime: String(editProfile.escalationTime),
          ownerEscalationMinutes: String(editProfile.ownerEscalationMinutes),
          responseTemplate: editProfile.responseTemplate ?? "",
        }
      : {});
  const bankIntent = editBank ? "update-bank" : "create-bank";
  const bv =
    sent(bankIntent) ??
    (editBank
      ? {
          category: editBank.category,
          keywords: editBank.keywords.join(", "),
          priority: editBank.priority,
          alertProfileId: editBank.alertProfileId ? String(editBank.alertProfileId) : "",
          autoResponse: editBank.autoResponse ?? "",
          aiPrompt: editBank.aiPrompt ?? "",
          useAI: editBank.useAi ? "true" : "",
        }
      : {});
  const formFailure = (intent: string) =>
    failed && failed.intent === intent ? (
      <Alert tone="danger" data-testid="form-error">
        <strong>{failed.title}</strong>: {failed.message}
      </Alert>
    ) : null;
  const listFailure =
    failed &&
    !["create-profile", "update-profile", "create-bank", "update-bank", "delete-profile", "delete-bank"].includes(
      failed.intent ?? "",
    ) ? (
      <Alert tone="danger" data-testid="action-error">
        <strong>{failed.title}</strong>: {failed.message}
      </Alert>
    ) : null;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Smart Alerts"
        description="Sort incoming replies by priority and tell the right person by email."
      />
      {/* The per-conversation email cap (decision 021): held emails still leave their alert in the bell. */}
      <p className="text-sm text-fg-muted" data-testid="held-alert-emails">
        <strong>{formatCount(heldEmails)}</strong> alert {heldEmails === 1 ? "email" : "emails"} held today (at most{" "}
        {emailCap} per conversation per hour; the alerts stay in the bell)
      </p>
      {listFailure}
      {suppressedStaff.length ? (
        <Alert tone="warning" data-testid="suppressed-staff">
          <p>
            <strong>Unsubscribed staff addresses</strong>: these addresses clicked unsubscribe in a marketing email.
            Alerts and escalations still reach them; clear it if the click was a mistake.
          </p>
          <ul className="mt-2 space-y-1">
            {suppressedStaff.map((s) => (
              <li key={s.address} className="flex flex-wrap items-center justify-between gap-2">
                <span className="min-w-0 break-all">{s.address}</span>
                <Form method="post" action="/smart-alerts?tab=profiles">
                  <input type="hidden" name="intent" value="clear-suppression" />
                  <input type="hidden" name="address" value={s.address} />
                  <Button type="submit" size="sm" variant="outline">
                    Clear
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
      <Tabs label="Smart alert settings" value={tab} items={items}>
        {tab === "profiles" ? (
          <RecordEditor
            form={
              <RecordForm
                noun={{ title: "alert profile", button: "Profile" }}
                editing={editProfile}
                intent={profileIntent}
                query="tab=profiles"
                failure={formFailure(profileIntent)}
                testId="profile-form"
              >
                <Field
                  label="Name"
                  name="name"
                  required
                  defaultValue={pv.name ?? ""}
                  errors={errorsFor(profileIntent, "name")}
                />
                <Field
                  as="select"
                  label="Department"
                  name="department"
                  defaultValue={pv.department ?? "Solar Sales"}
                  options={DEPARTMENTS}
                />
                <Field
                  label="Keywords"
                  name="keywords"
                  required
                  defaultValue={pv.keywords ?? ""}
                  hint="Separate with commas."
                  errors={errorsFor(profileIntent, "keywords")}
                />
                <Field
                  label="Email"
                  name="email"
                  type="email"
                  defaultValue={pv.email ?? ""}
                  errors={errorsFor(profileIntent, "email")}
                />
                <Field label="Phone" name="phone" type="tel" defaultValue={pv.phone ?? ""} />
                <Field
                  as="select"
                  label="Priority"
                  name="priority"
                  defaultValue={pv.priority ?? "medium"}
                  options={PROFILE_PRIORITIES}
                />
                {(
                  [
                    ["escalationTime", "Escalation time (minutes)", 1, undefined],
                    [
                      "ownerEscalationMinutes",
                      "Owner first: send to this profile after (minutes)",
                      0,
                      "An owned contact's alert goes to its owner at once; this profile gets it only if nobody has answered by then. 0 = both at once.",
                    ],
                  ] as const
                ).map(([name, label, min, hint]) => (
                  <Field
                    key={name}
                    label={label}
                    hint={hint}
                    name={name}
                    type="number"
                    min={min}
                    max={1440}
                    defaultValue={pv[name] ?? "15"}
                    errors={errorsFor(profileIntent, name)}
                  />
                ))}
                <Field
                  as="textarea"
                  label="Response template"
                  name="responseTemplate"
                  rows={2}
                  defaultValue={pv.responseTemplate ?? ""}
                />
              </RecordForm>
            }
            empty={
              profiles.length === 0 ? (
                <EmptyState
                  icon={BellRing}
                  title="No alert profiles yet"
                  description="Create one to route matching replies to a person."
                />
              ) : null
            }
          >
            {profiles.map((p) => (
              <RecordCard
                key={p.id}
                id={p.id}
                name={p.name}
                description={`${p.department} · escalates after ${p.escalationTime} min · owner first ${p.ownerEscalationMinutes} min`}
                isActive={p.isActive}
                toggleIntent="toggle-profile"
                query="tab=profiles"
                testId="profile-card"
              >
                <p className="flex flex-wrap gap-1">
                  <PriorityBadge priority={p.priority} />
                  <ActiveBadge active={p.isActive} />
                </p>
                <Keywords words={p.keywords} shown={3} />
                <p className="text-fg-muted">
                  {p.email ?? "No email"}
                  {p.phone ? ` · ${p.phone}` : ""}
                </p>
              </RecordCard>
            ))}
          </RecordEditor>
        ) : tab === "banks" ? (
          <RecordEditor
            form={
              <RecordForm
                noun={{ title: "keyword bank", button: "Bank" }}
                editing={editBank ? { id: editBank.id, name: editBank.category } : undefined}
                intent={bankIntent}
                query="tab=banks"
                failure={formFailure(bankIntent)}
                testId="bank-form"
              >
                <Field
                  as="select"
                  label="Category"
                  name="category"
                  required
                  defaultValue={bv.category ?? ""}
                  errors={errorsFor(bankIntent, "category")}
                  placeholder="Choose a category"
                  options={BANK_CATEGORIES}
                />
                <Field
                  label="Keywords"
                  name="keywords"
                  required
                  defaultValue={bv.keywords ?? ""}
                  hint="Separate with commas."
                  errors={errorsFor(bankIntent, "keywords")}
                />
                <Field
                  as="select"
                  label="Priority"
                  name="priority"
                  defaultValue={bv.priority ?? "medium"}
                  options={BANK_PRIORITIES}
                />
                <Field
                  as="select"
                  label="Alert profile"
                  name="alertProfileId"
                  defaultValue={bv.alertProfileId ?? ""}
                  errors={errorsFor(bankIntent, "alertProfileId")}
                  placeholder="None"
                  options={profiles.map((p) => ({ value: p.id, label: p.name }))}
                />
                <Field
                  as="textarea"
                  label="Auto response"
                  name="autoResponse"
                  rows={2}
                  defaultValue={bv.autoResponse ?? ""}
                />
                <Checkbox name="useAI" defaultChecked={bv.useAI === "true"} label="Use AI" />
                <Field as="textarea" label="AI prompt" name="aiPrompt" rows={2} defaultValue={bv.aiPrompt ?? ""} />
              </RecordForm>
            }
            empty={
              banks.length === 0 ? (
                <EmptyState
                  icon={BookText}
                  title="No keyword banks yet"
                  description="Create one to sort replies by category and priority."
                />
              ) : null
            }
          >
            {banks.map((b) => (
              <RecordCard
                key={b.id}
                id={b.id}
                name={b.category}
                description={`Triggered ${b.triggerCount} ${b.triggerCount === 1 ? "time" : "times"}`}
                isActive={b.isActive}
                toggleIntent="toggle-bank"
                query="tab=banks"
                testId="bank-card"
              >
                <p className="flex flex-wrap gap-1">
                  <PriorityBadge priority={b.priority} />
                  <ActiveBadge active={b.isActive} />
                  {b.useAi ? <Badge tone="info">AI</Badge> : null}
                </p>
                <Keywords words={b.keywords} shown={4} />
              </RecordCard>
            ))}
          </RecordEditor>
        ) : (
          <Card
            title="Recent classifications"
            description="What the classifier saw, newest first. Marks feed the accuracy figure."
            data-testid="ai-monitoring"
          >
            {recent.length === 0 ? (
              <EmptyState
                icon={Brain}
                title="No data yet"
                description="Classifications appear here as replies come in."
              />
            ) : (
              <ul className="divide-y divide-border text-sm">
                {recent.map((c) => (
                  <li
                    key={c.id}
                    className="flex flex-wrap items-center justify-between gap-2 py-2"
                    data-testid="classification-row"
                  >
                    <span className="min-w-0 flex-1 truncate">{c.textPreview}</span>
                    <span className="flex flex-wrap gap-1">
                      <Badge tone="info">{c.intent}</Badge>
                      <Badge>{c.sentiment}</Badge>
                      <span className="text-fg-muted">
                        {c.confidence}% · {c.analysisMs} ms
                      </span>
                      {c.markedCorrect === null ? null : (
                        <Badge tone={c.markedCorrect ? "success" : "danger"}>
                          {c.markedCorrect ? "Marked right" : "Marked wrong"}
                        </Badge>
                      )}
                    </span>
                    <Form method="post" action="/smart-alerts?tab=monitoring" className="flex gap-1">
                      <input type="hidden" name="intent" value="mark" />
                      <input type="hidden" name="id" value={c.id} />
                      <VerdictButtons
                        name="verdict"
                        verdict={c.markedCorrect === null ? null : c.markedCorrect ? "right" : "wrong"}
                      />
                    </Form>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        )}
      </Tabs>
      {delProfile ? (
        <DeleteDialog noun="alert profile" tab="profiles" intent="delete-profile" id={delProfile.id} failed={failed}>
          Delete <span className="font-medium">{delProfile.name}</span>? Its keyword banks stay, with no profile.
        </DeleteDialog>
      ) : null}
      {delBank ? (
        <DeleteDialog noun="keyword bank" tab="banks" intent="delete-bank" id={delBank.id} failed={failed}>
          Delete the <span className="font-medium">{delBank.category}</span> bank? It stops matching replies at once.
        </DeleteDialog>
      ) : null}
    </div>
  );
}
