import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { desc, sql } from "drizzle-orm";
import { contacts as contactsTable } from "~/db/schema";
import { Send } from "lucide-react";
import { ALERT_TOASTS } from "~/responders/alerts/alert-schema";
import { listBanks, listProfiles } from "~/responders/alerts/manage-alert-settings.server";
import { runTestAlert } from "~/responders/alerts/run-test-alert.server";
import { requireUser } from "~/http/guard.server";
import { readCapCounters } from "~/caps/read-cap-counters.server";
import { Alert, Button, Card, Field, ItemList, PageHeader, PriorityBadge } from "~/components/ui";
import { AppError } from "~/lib/app-error";
import { failureToast, postedValue } from "~/components/form-failure";
import { formAction } from "~/http/form-action.server";
import { z } from "zod";
import { parseId } from "~/lib/ids";

export const meta: MetaFunction = () => [{ title: "Test Alerts — Helio" }];

/** The alert test screen lists 5 active profiles and 5 active banks (SPEC §9). */
const SHOWN = 5;
const SAMPLES = [
  "Hi, I'm very interested in solar panels for my home. Can someone call me today?",
  "How much would a 10kW system cost with financing?",
  "Can we schedule a site visit next Tuesday at 3pm?",
  "I'm worried my roof is too shaded and the HOA won't allow it.",
];

export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  const db = args.context.db;
  const [profiles, banks, contacts, caps] = await Promise.all([
    listProfiles(db),
    listBanks(db),
    db
      .select({
        id: contactsTable.id,
        name: sql<string>`${contactsTable.firstName} || ' ' || ${contactsTable.lastName}`,
        phone: contactsTable.phone,
      })
      .from(contactsTable)
      .orderBy(desc(contactsTable.id))
      .limit(50),
    readCapCounters(db, args.context.clock(), user.id),
  ]);
  return {
    salesEmail: args.context.alerts().salesAlertEmail,
    profiles: profiles
      .filter((p) => p.isActive)
      .slice(0, SHOWN)
      .map((p) => ({ id: p.id, name: p.name, department: p.department, priority: p.priority })),
    banks: banks
      .filter((b) => b.isActive)
      .slice(0, SHOWN)
      .map((b) => ({ id: b.id, category: b.category, priority: b.priority, keywords: b.keywords.slice(0, 4) })),
    contacts,
    testAlerts: caps.testAlerts!,
  };
}

const testAlertForm = z.object({ message: z.string().default(""), contactId: z.unknown() });

/** SPEC §9's words for a refused test: an empty message, the hourly limit, or anything else as "test failed". */
function testAlertRefusal(err: AppError): AppError {
  if (err.code === "validation")
    return new AppError("validation", "Please enter a test message.", { title: err.message, field: err.field });
  if (err.code === "rate_limited")
    return new AppError("rate_limited", err.message, {
      title: err.title ?? "Too many test alerts",
      retryAfter: err.retryAfter,
    });
  return new AppError(err.code, ALERT_TOASTS.testFailedText, { title: ALERT_TOASTS.testFailed });
}

export async function action(args: ActionFunctionArgs) {
  const { context } = args;
  return formAction(args, { schema: testAlertForm }, async ({ message, contactId }, { user }) => {
    try {
      const result = await runTestAlert(context.replyDeps(), { message, contactId: parseId(contactId) }, user.id);
      return data({ ok: true as const, message, result });
    } catch (err) {
      throw err instanceof AppError ? testAlertRefusal(err) : err;
    }
  });
}

export default function TestSmartAlerts() {
  const { salesEmail, profiles, banks, contacts, testAlerts } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const r = reply?.ok ? reply.result : undefined;
  const failure = failureToast(reply);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Test Smart Alerts"
        description={
          salesEmail ? (
            <>
              Test alerts are emailed to the sales alert address:{" "}
              <strong data-testid="sales-email">{salesEmail}</strong>
            </>
          ) : (
            <>
              No sales alert address is set:{" "}
              <strong data-testid="sales-email">set SALES_ALERT_EMAIL with wrangler</strong> so test alerts and
              escalations have somewhere to go.
            </>
          )
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card title="Test message" className="lg:col-span-2">
          <Form method="post" className="space-y-3" data-testid="test-alert-form">
            {failure ? (
              <Alert tone="danger" role="alert">
                <strong>{failure.title}</strong>: {failure.description}
              </Alert>
            ) : null}
            <Field
              as="textarea"
              label="Message"
              name="message"
              rows={4}
              defaultValue={reply?.ok ? reply.message : postedValue(reply, "message")}
            />
            <Field
              as="select"
              label="Contact (optional)"
              name="contactId"
              defaultValue=""
              placeholder="Test contact"
              options={contacts.map((c) => ({ value: c.id, label: c.phone ? `${c.name} · ${c.phone}` : c.name }))}
            />
            <p className="text-sm text-fg-muted" data-testid="test-alerts-left">
              {testAlerts.remaining} of {testAlerts.limit} test alerts left this hour
            </p>
            <Button type="submit" icon={Send}>
              Run Test
            </Button>
          </Form>
          <div className="mt-4">
            <p className="mb-2 text-sm font-medium">Quick samples</p>
            <div className="flex flex-wrap gap-2">
              {SAMPLES.map((s) => (
                <Form method="post" key={s}>
                  <input type="hidden" name="message" value={s} />
                  <Button type="submit" variant="outline" size="sm">
                    {s.slice(0, 40)}…
                  </Button>
                </Form>
              ))}
            </div>
          </div>
        </Card>
        <div className="space-y-4">
          <Card title="Active alert profiles">
            <ItemList items={profiles} empty="None active" className="space-y-1 text-sm">
              {(p) => (
                <>
                  {p.name} · {p.department} · <PriorityBadge priority={p.priority} />
                </>
              )}
            </ItemList>
          </Card>
          <Card title="Active keyword banks">
            <ItemList items={banks} empty="None active" className="space-y-1 text-sm">
              {(b) => (
                <>
                  {b.category} · <PriorityBadge priority={b.priority} /> {b.keywords.join(", ")}
                </>
              )}
            </ItemList>
          </Card>
        </div>
      </div>
      {r ? (
        <Card title="Result" data-testid="test-alert-result">
          {r.priority ? (
            <div className="space-y-2 text-sm">
              <p>
                Priority <PriorityBadge priority={r.priority} /> · Category <strong>{r.category}</strong>
              </p>
              <p>
                Matched keyword banks:{" "}
                {r.banks.map((b) => `${b.category} (${b.byAi ? "AI" : b.keywords.join(", ")})`).join("; ") || "none"}
              </p>
              <p>Matched alert profiles: {r.profiles.map((p) => p.name).join("; ") || "none"}</p>
              {r.classification ? (
                <p>
                  Classifier: {r.classification.intent}, {r.classification.sentiment}, {r.classification.confidence}%
                  confidence
                </p>
              ) : null}
              <p>Alert emailed to {r.sentTo}</p>
              {r.wouldSend ? (
                <pre className="whitespace-pre-wrap rounded bg-muted p-3 text-xs">{`Subject: ${r.wouldSend.subject}\n\n${r.wouldSend.content}`}</pre>
              ) : null}
              {r.wouldSend?.autoResponse ? <p>Auto response to the contact: {r.wouldSend.autoResponse}</p> : null}
            </div>
          ) : (
            <p className="text-sm">
              No keyword bank or alert profile matched.
              {r.classification
                ? ` Classifier: ${r.classification.intent}, ${r.classification.confidence}% confidence.`
                : ""}
            </p>
          )}
        </Card>
      ) : null}
    </div>
  );
}
