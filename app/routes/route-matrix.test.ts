import { beforeAll, describe, expect, it } from "vitest";
import { unsubscribeToken } from "~/messaging/unsubscribe.server";
import { bookingToken } from "~/appointments/booking-token.server";
import { addCampaignContacts } from "~/campaigns/add-campaign-contacts.server";
import { addCampaignStep } from "~/campaigns/add-campaign-step.server";
import { checkStep } from "~/campaigns/campaign-schema";
import { createCampaign } from "~/campaigns/create-campaign.server";
import { createTemplate } from "~/templates/create-template.server";
import { saveSegment } from "~/segments/save-segment.server";
import { segmentDefinition } from "~/segments/segment-definition";
import { parseBank, parseProfile } from "~/responders/alerts/alert-schema";
import { createBank, createProfile } from "~/responders/alerts/manage-alert-settings.server";
import { createResponder } from "~/responders/create-responder.server";
import { parseResponder } from "~/responders/responder-schema";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { bearer, createTestApiKey } from "../../tests/api-key-factory";
import { API_KEY_SCOPES, scopeFor, type ApiKeyScope } from "~/auth/api-key-scopes";
import { OPERATIONS } from "~/http/api-v1/operations";

/**
 * The scope a key needs: /api/v1 routes declare theirs per operation (decision 038), and take any valid key on a
 * method they do not serve (then 405, whatever the key's scopes); the rest of /api follows scopeFor.
 */
function neededScope(method: string, path: string): ApiKeyScope | "any" | null {
  if (!path.startsWith("/api/v1/")) return scopeFor(method, path);
  const matching = OPERATIONS.filter((o) => new RegExp(`^${o.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path));
  return matching.find((o) => o.method === method.toLowerCase())?.scope ?? (matching.length ? "any" : null);
}

const SUPER_API: Statuses = { anon: 401, user: 403, superuser: 200 };
const SUPER_API_INVALID: Statuses = { anon: 401, user: 403, superuser: 400 };
const SUPER_API_405: Statuses = { anon: 401, user: 403, superuser: 405 };
const SUPER_FORM_INVALID: Statuses = { anon: 302, user: 403, superuser: 400 };
const freshUser = async () => (await createTestUser()).id;
/** A bare number's conversation owned by a fresh user (the row the messages trigger would write). */
const freshConversation = async () => {
  const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
  const [row] = await db()
    .insert(conversations)
    .values({
      key: `p:${phone}`,
      phone,
      lastMessageId: 1,
      lastMessageAt: new Date(),
      lastDirection: "inbound",
      lastPreview: "Matrix",
      ownerUserId: await freshUser(),
    })
    .returning({ id: conversations.id });
  return row.id;
};
import { createTestContact } from "../../tests/contact-factory";
import { eq } from "drizzle-orm";
import { contacts, conversations } from "~/db/schema";

/**
 * Route × role matrix (issue 9 #12): every route module and method, with the status each kind of caller gets
 * from the real Worker (SELF, workerd, real D1 sessions). A new module under app/routes fails the first test
 * until it is listed here, so a superuser-only screen is enforced on the server from its first commit: give it
 * `SUPERUSER_SCREEN` (anonymous → /login, standard user → 403, superuser → 200).
 */
type Who = "anon" | "user" | "superuser";
type Statuses = Record<Who, number>;
type Ctx = { who: Who; userId: number };
type Case = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** A path, or one built per caller (fresh records for destructive calls). */
  path: string | ((ctx: Ctx) => Promise<string>);
  /** A form body, or one built per caller (ids of fresh records posted as fields). */
  form?: Record<string, string> | ((ctx: Ctx) => Promise<Record<string, string>>);
  json?: unknown;
  multipart?: boolean;
  expect: Statuses;
  /** The call ends the session (logout): sign in afresh for it. */
  freshSession?: boolean;
};

const SCREEN: Statuses = { anon: 302, user: 200, superuser: 200 };
// For the superuser screens to come (user management, user analytics): standard users get 403.
export const SUPERUSER_SCREEN: Statuses = { anon: 302, user: 403, superuser: 200 };
const SCREEN_FORM_INVALID: Statuses = { anon: 302, user: 400, superuser: 400 };
const SCREEN_NO_ACTION: Statuses = { anon: 405, user: 405, superuser: 405 };
const API: Statuses = { anon: 401, user: 200, superuser: 200 };
const API_INVALID: Statuses = { anon: 401, user: 400, superuser: 400 };
const API_405: Statuses = { anon: 401, user: 405, superuser: 405 };
const PUBLIC = (status: number): Statuses => ({ anon: status, user: status, superuser: status });

const freshContact = async (ctx: Ctx) => (await createTestContact(ctx.userId)).id;
const freshCampaign = async (ctx: Ctx) =>
  (
    await createCampaign(
      db(),
      { name: `Matrix ${crypto.randomUUID().slice(0, 8)}` },
      { userId: ctx.userId, role: "superuser", ipAddress: null },
      new Date(),
    )
  ).id;
/** A fresh campaign with one fresh contact enrolled: the path that stops that enrolment. */
const freshEnrolmentStop = async (ctx: Ctx) => {
  const [campaignId, contactId] = [await freshCampaign(ctx), await freshContact(ctx)];
  await addCampaignContacts(db(), campaignId, [contactId], new Date());
  return `/api/v1/campaigns/${campaignId}/enrolments/${contactId}/stop`;
};
const freshStep = async (ctx: Ctx) =>
  (
    await addCampaignStep(
      db(),
      await freshCampaign(ctx),
      checkStep({ name: "Intro", messageType: "sms", content: "Hi {{firstName}}", delayDays: 0, delayHours: 0 }),
      new Date(),
    )
  ).id;
const freshTemplate = async (ctx: Ctx) =>
  (await createTemplate(db(), { name: "Matrix", type: "sms", content: "Hi {{firstName}}" }, ctx.userId, new Date())).id;
// Inactive and keyed on a word no test texts: matrix records never answer or alert anyone.
const unusedKeyword = () => `mx${crypto.randomUUID().slice(0, 8)}`;
const inactive = { isActive: false, name: "Matrix" };
const freshResponder = async () =>
  (
    await createResponder(
      db(),
      parseResponder({ ...inactive, keywords: [unusedKeyword()], responses: { primary: "hi" } }),
      new Date(),
    )
  ).id;
const freshProfile = async () =>
  (await createProfile(db(), parseProfile({ ...inactive, keywords: unusedKeyword() }), new Date())).id;
const freshBank = async () =>
  (
    await createBank(
      db(),
      parseBank({ category: "Scheduling", isActive: false, keywords: unusedKeyword() }),
      new Date(),
    )
  ).id;
let unsubscribe = "";

// Statuses that recur below.
const REDIRECT = PUBLIC(302);
const SCREEN_404: Statuses = { anon: 302, user: 404, superuser: 404 };
const SCREEN_405: Statuses = { anon: 302, user: 405, superuser: 405 };
const SUPER_SCREEN_404: Statuses = { anon: 302, user: 403, superuser: 404 };
const API_204: Statuses = { anon: 401, user: 204, superuser: 204 };
const API_404: Statuses = { anon: 401, user: 404, superuser: 404 };
const API_409: Statuses = { anon: 401, user: 409, superuser: 409 };

/** What an /api route answers its callers: anyone signed in, or superusers only (a standard user gets 403). */
type Answers = { ok: Statuses; invalid: Statuses; notAllowed: Statuses };
const ANY_CALLER: Answers = { ok: API, invalid: API_INVALID, notAllowed: API_405 };
const SUPERUSERS: Answers = { ok: SUPER_API, invalid: SUPER_API_INVALID, notAllowed: SUPER_API_405 };

// Case builders: each writes out the cases a kind of route always gets, so an entry below names only what differs.
type Path = Case["path"];
type Form = Case["form"];
/** `prefix/<id of a fresh record>suffix`, a new record for every call (destructive calls never share one). */
const freshPath =
  (prefix: string, make: (ctx: Ctx) => Promise<number>, suffix = "") =>
  async (ctx: Ctx) =>
    `${prefix}/${await make(ctx)}${suffix}`;
/** A form posting a fresh record's id as `id`. */
const withFreshId =
  (make: () => Promise<number>, form: Record<string, string>) => async (): Promise<Record<string, string>> => ({
    ...form,
    id: String(await make()),
  });
const get = (path: Path, expect: Statuses): Case => ({ method: "GET", path, expect });
const post = (path: Path, form: Form, expect: Statuses): Case => ({ method: "POST", path, form, expect });
const postJson = (path: Path, json: unknown, expect: Statuses): Case => ({ method: "POST", path, json, expect });

/** A screen and its action: GET → `onGet`; POST `form` → `onPost` (default: a form that fails validation). */
const screen = (path: Path, onPost = SCREEN_FORM_INVALID, onGet = SCREEN, form: Form = {}): Case[] => [
  get(path, onGet),
  post(path, form, onPost),
];
/** A screen without an action. */
const placeholder = (path: string): Case[] => screen(path, SCREEN_NO_ACTION);

/** An /api collection (or a record's sub-collection): GET lists, POST `invalid` → 400, and `other` (when given) → 405. */
const apiCollection = (
  path: Path,
  opts: { invalid?: unknown; other?: Pick<Case, "method" | "json">; answers?: Answers } = {},
): Case[] => {
  const answers = opts.answers ?? ANY_CALLER;
  return [
    get(path, answers.ok),
    postJson(path, opts.invalid ?? {}, answers.invalid),
    ...(opts.other ? [{ ...opts.other, path, expect: answers.notAllowed }] : []),
  ];
};
/** An /api record (`path` makes a fresh one per call): GET 200, each PUT as listed, DELETE 204, `other` 405. */
const apiRecord = (
  path: Path,
  puts: [json: unknown, expect: Statuses][],
  other: "PATCH" | "POST",
  getPath: Path = path,
): Case[] => [
  get(getPath, API),
  ...puts.map(([json, expect]): Case => ({ method: "PUT", path, json, expect })),
  { method: "DELETE", path, expect: API_204 },
  { method: other, path, json: {}, expect: API_405 },
];
/** A POST-only /api endpoint: each body as listed, then GET → 405. */
const apiPost = (path: Path, posts: [json: unknown, expect: Statuses][]): Case[] => [
  ...posts.map(([json, expect]) => postJson(path, json, expect)),
  get(path, API_405),
];
/** A GET-only /api endpoint: GET 200, POST → 405. */
const apiGet = (path: string, answers = ANY_CALLER): Case[] => [
  get(path, answers.ok),
  postJson(path, {}, answers.notAllowed),
];

const campaignAt = (suffix = "") => freshPath("/campaigns", freshCampaign, suffix);
/** A booking time ("YYYY-MM-DDTHH:MM", UTC) two days from now. */
const inTwoDays = () => new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 16);
const contactAt = (suffix = "") => freshPath("/contacts", freshContact, suffix);
/** A fresh segment (decision 075) made by `owner` (the caller, or another user): its creator may change it. */
const freshSegment = (owner: "caller" | "other") => async (ctx: Ctx) =>
  (
    await saveSegment(
      db(),
      { name: `Matrix ${crypto.randomUUID().slice(0, 8)}`, definition: segmentDefinition.parse({ stages: ["new"] }) },
      {
        userId: owner === "caller" && ctx.who !== "anon" ? ctx.userId : await freshUser(),
        role: "user",
        ipAddress: null,
      },
      new Date(),
    )
  ).id;
const segmentAt = (owner: "caller" | "other" = "caller") => freshPath("/contacts/segments", freshSegment(owner));
const apiCampaignAt = (suffix = "") => freshPath("/api/campaigns", freshCampaign, suffix);
/** A booking link for a fresh contact (decision 058), signed like the unsubscribe links. */
const bookingAt = async (ctx: Ctx) =>
  `/book/${await bookingToken("test-session-secret", await freshContact(ctx), new Date())}`;
const unsubscribeAt =
  (suffix = "") =>
  async () =>
    `/unsubscribe/${unsubscribe}${suffix}`;

/** The conversation screens' intents besides reply (decision 047), on a contact's page or a number's thread. */
const CONVERSATION_INTENTS = (path: Path): Case[] => [
  post(path, { intent: "note", note: "" }, SCREEN_FORM_INVALID),
  post(path, { intent: "note", note: "Matrix note, never sent" }, REDIRECT),
  post(path, { intent: "suggest" }, SCREEN),
  post(
    path,
    { intent: "later", message: "Later", nonce: "matrix-nonce-1", sendAt: "soon", tz: "UTC" },
    SCREEN_FORM_INVALID,
  ),
  post(path, { intent: "cancel", messageId: "999999999" }, { anon: 302, user: 409, superuser: 409 }),
];

/** File name under app/routes → its cases. */
const MATRIX: Record<string, Case[]> = {
  // Pathless layout: guards every screen below it; reached through "/".
  "_app+/_layout.tsx": [get("/", SCREEN)],
  "_app+/_index.tsx": placeholder("/"),
  "_app+/$.tsx": screen("/no-such-screen", SCREEN_405, SCREEN_404),
  "_app+/_analytics+/analytics.tsx": placeholder("/analytics"),
  "_app+/_responders+/auto-responder.tsx": screen("/auto-responder", SCREEN_404, SCREEN, { isActive: "true" }),
  "_app+/_responders+/auto-responder.new.tsx": [
    get("/auto-responder/new", SCREEN),
    post("/auto-responder/new", { intent: "tab:ai", name: "x" }, SCREEN),
    post("/auto-responder/new", { intent: "save" }, SCREEN_FORM_INVALID),
  ],
  "_app+/_responders+/auto-responder.$id.edit.tsx": screen(
    freshPath("/auto-responder", freshResponder, "/edit"),
    SCREEN_FORM_INVALID,
    SCREEN,
    { intent: "save" },
  ),
  "_app+/_responders+/auto-responder.$id.delete.tsx": screen(
    freshPath("/auto-responder", freshResponder, "/delete"),
    REDIRECT,
  ),
  "_app+/_campaigns+/campaigns.tsx": [
    ...screen("/campaigns"),
    post("/campaigns", { intent: "pause", id: "999999999" }, REDIRECT),
  ],
  "_app+/_campaigns+/campaigns.new.tsx": [
    get("/campaigns/new?q=a", SCREEN),
    post("/campaigns/new", {}, SCREEN_FORM_INVALID),
  ],
  "_app+/_campaigns+/campaigns.$id.edit.tsx": screen(campaignAt("/edit")),
  "_app+/_campaigns+/campaigns.$id.delete.tsx": screen(campaignAt("/delete"), REDIRECT),
  "_app+/_campaigns+/campaigns.$id.contacts.tsx": screen(campaignAt("/contacts")),
  // Start from the check: a fresh campaign has no contacts, so start refuses it (409 beside the dialog).
  "_app+/_campaigns+/campaigns.$id.check.tsx": [
    ...screen(campaignAt("/check"), { anon: 302, user: 409, superuser: 409 }),
    get("/campaigns/999999999/check", SCREEN_404),
  ],
  "_app+/_campaigns+/campaigns.$id.steps.tsx": [
    get(campaignAt("/steps"), SCREEN),
    get("/campaigns/999999999/steps", SCREEN_404),
    post(campaignAt("/steps"), { intent: "add" }, SCREEN_FORM_INVALID),
    post(campaignAt("/steps"), { intent: "toggle", stepId: "999999999", isActive: "false" }, SCREEN_404),
  ],
  // An empty message is ignored: 204, nothing streamed or stored.
  "_session+/idea-generator.stream.ts": screen(
    "/idea-generator/stream",
    { anon: 302, user: 204, superuser: 204 },
    SCREEN_405,
    { message: " " },
  ),
  "_app+/_ai+/idea-generator.tsx": [
    get("/idea-generator", SCREEN),
    // An empty message is ignored: back to the thread.
    post("/idea-generator", { intent: "send", message: " " }, REDIRECT),
    post("/idea-generator", { intent: "clear" }, REDIRECT),
  ],
  // Without a campaign: back to the editor with the error in the query.
  "_session+/ai.generate-step.ts": screen("/ai/generate-step", REDIRECT, SCREEN_405, { returnTo: "/campaigns" }),
  "api+/_ai+/ai.chat.ts": apiPost("/api/ai/chat", [
    [{}, API_INVALID],
    [{ message: "Ideas for a referral campaign" }, API],
  ]),
  "api+/_ai+/ai.generate-email.ts": apiPost("/api/ai/generate-email", [
    [{}, API_INVALID],
    [{ prompt: "Introduce our summer offer" }, API],
  ]),
  "api+/_ai+/ai.generate-step-content.ts": apiPost("/api/ai/generate-step-content", [
    [{}, API_INVALID],
    [{ campaignName: "Spring", stepNumber: 1, messageType: "sms" }, API],
  ]),
  "_app+/_ai+/knowledge-base.tsx": placeholder("/knowledge-base"),
  "_app+/_responders+/smart-alerts.tsx": [
    get("/smart-alerts", SCREEN),
    get("/smart-alerts?tab=banks", SCREEN),
    get("/smart-alerts?tab=monitoring", SCREEN),
    get(async () => `/smart-alerts?tab=profiles&edit=${await freshProfile()}`, SCREEN),
    get(async () => `/smart-alerts?tab=banks&delete=${await freshBank()}`, SCREEN),
    post("/smart-alerts", {}, SCREEN_FORM_INVALID),
    // "Missing information": name/category and keywords are required.
    post("/smart-alerts", { intent: "create-profile" }, SCREEN_FORM_INVALID),
    post("/smart-alerts", { intent: "create-bank" }, SCREEN_FORM_INVALID),
    post("/smart-alerts", withFreshId(freshProfile, { intent: "update-profile", name: "" }), SCREEN_FORM_INVALID),
    post("/smart-alerts", withFreshId(freshBank, { intent: "update-bank", category: "" }), SCREEN_FORM_INVALID),
    post("/smart-alerts", { intent: "toggle-profile", id: "999999999", isActive: "true" }, SCREEN_404),
    post("/smart-alerts", withFreshId(freshProfile, { intent: "toggle-profile", isActive: "false" }), REDIRECT),
    post("/smart-alerts", withFreshId(freshBank, { intent: "toggle-bank", isActive: "false" }), REDIRECT),
    post("/smart-alerts", withFreshId(freshProfile, { intent: "delete-profile" }), REDIRECT),
    post("/smart-alerts", withFreshId(freshBank, { intent: "delete-bank" }), REDIRECT),
    post("/smart-alerts", { intent: "delete-bank", id: "999999999" }, SCREEN_404),
    post("/smart-alerts", { intent: "mark", id: "999999999" }, SCREEN_FORM_INVALID),
    post("/smart-alerts", { intent: "mark", id: "999999999", verdict: "right" }, SCREEN_404),
  ],
  "_app+/_testing+/testing.tsx": [
    get("/testing?tab=broadcast&type=email", SCREEN),
    post("/testing", { intent: "manual" }, SCREEN_FORM_INVALID),
    post("/testing", { intent: "template" }, SCREEN_FORM_INVALID),
    post("/testing", { intent: "check" }, SCREEN_FORM_INVALID),
  ],
  "_app+/_testing+/testing_.sends.$id.tsx": screen("/testing/sends/999999999", SCREEN_NO_ACTION, SCREEN_404),
  // Superusers only, on the server: a standard user gets 403 on the screen, its dialogs and their actions.
  "_app+/_analytics+/user-analytics.tsx": [
    get("/user-analytics", SUPERUSER_SCREEN),
    get("/user-analytics?tab=details&user=999999999", SUPERUSER_SCREEN),
    // No action: 405, rendered through the route's error boundary, so the layout's guard still answers anonymous.
    post("/user-analytics", {}, SCREEN_405),
  ],
  "_app+/_analytics+/user-analytics.new.tsx": screen("/user-analytics/new", SUPER_FORM_INVALID, SUPERUSER_SCREEN),
  "_app+/_analytics+/user-analytics.users.$id.tsx": [
    get(async () => `/user-analytics/users/${await freshUser()}`, SUPERUSER_SCREEN),
    get("/user-analytics/users/999999999", SUPER_SCREEN_404),
    post(async () => `/user-analytics/users/${await freshUser()}`, { intent: "nonsense" }, SUPER_FORM_INVALID),
    post(
      async () => `/user-analytics/users/${await freshUser()}`,
      { intent: "away" },
      {
        anon: 302,
        user: 403,
        superuser: 302,
      },
    ),
    // A rep's sending number (decision 045): superusers only; a malformed one is the form's error.
    post(
      async () => `/user-analytics/users/${await freshUser()}`,
      { intent: "sending-number", smsSender: "x" },
      SUPER_FORM_INVALID,
    ),
  ],
  "_app+/_account+/account.tsx": [
    ...screen("/account"),
    post("/account", { intent: "lead-availability", available: "on" }, REDIRECT),
    post("/account", { intent: "revoke-session", sessionId: "nope" }, SCREEN_FORM_INVALID),
    // Only one's own sessions: an unknown (or someone else's) id is a 404.
    post("/account", { intent: "revoke-session", sessionId: "0".repeat(64) }, SCREEN_404),
  ],
  "_app+/_account+/account_.password.tsx": screen("/account/password"),
  "_app+/_account+/account_.push.ts": [
    get("/account/push", REDIRECT),
    post("/account/push", { intent: "preferences", hotLeads: "true" }, REDIRECT),
    post("/account/push", { intent: "nope" }, SCREEN_FORM_INVALID),
  ],
  "_app+/_account+/account_.two-factor.tsx": [
    ...screen("/account/two-factor"),
    // Confirming before starting: nothing to confirm.
    post("/account/two-factor", { intent: "confirm", code: "000000" }, SCREEN_FORM_INVALID),
    post("/account/two-factor", { intent: "disable", password: "not the password" }, SCREEN_FORM_INVALID),
  ],
  "_app+/_responders+/test-smart-alerts.tsx": screen("/test-smart-alerts", SCREEN_FORM_INVALID, SCREEN, {
    message: "",
  }),
  "_app+/_contacts+/contacts.tsx": [
    ...screen("/contacts"),
    // Bulk "Set owner" to someone else (decision 044, updated): a hand-off of unowned or own contacts, for anyone.
    post(
      "/contacts",
      async (c) => ({ contactIds: String(await freshContact(c)), ownerUserId: String(await freshUser()) }),
      REDIRECT,
    ),
  ],
  "_app+/_contacts+/contacts_.$id.owner.tsx": [
    get(contactAt("/owner"), REDIRECT),
    post(contactAt("/owner"), { ownerUserId: "not-an-id" }, SCREEN_FORM_INVALID),
    // Another user as owner: a hand-off (decision 044, updated), saved for both roles on an unowned contact.
    post(contactAt("/owner"), async () => ({ ownerUserId: String(await freshUser()), note: "Matrix" }), REDIRECT),
  ],
  "_app+/_contacts+/contacts_.$id.stage.tsx": [
    get(contactAt("/stage"), REDIRECT),
    post(contactAt("/stage"), { stage: "" }, SCREEN_FORM_INVALID),
    // Both roles move an unowned contact (decision 053); an unknown stage is refused on the form.
    post(contactAt("/stage"), { stage: "sat" }, REDIRECT),
  ],
  "_app+/_contacts+/contacts_.$id.tags.tsx": [
    get(contactAt("/tags"), REDIRECT),
    // A typed field refused: a toast back on the contact's page (JS off too), like the domain's refusal.
    post(contactAt("/tags"), { intent: "add", tag: "x".repeat(201) }, REDIRECT),
    // A tag of the wrong shape is the domain's refusal: a toast back on the contact's page.
    post(contactAt("/tags"), { intent: "add", tag: "<b>" }, REDIRECT),
    // Both roles tag an unowned contact (issue 28 item 1).
    post(contactAt("/tags"), { intent: "add", tag: "Matrix" }, REDIRECT),
  ],
  "_app+/_contacts+/contacts_.$id.savings.tsx": [
    get(contactAt("/savings"), REDIRECT),
    // A bad bill is a toast back on the contact's page (decision 074); both roles save an unowned contact's figures.
    post(contactAt("/savings"), { monthlyBill: "x".repeat(30) }, REDIRECT),
    post(contactAt("/savings"), { monthlyBill: "182.50", monthlyKwh: "900" }, REDIRECT),
  ],
  // Decision 055: book (a time two days ahead in UTC) and mark; an appointment that is not the contact's is refused.
  "_app+/_contacts+/contacts_.$id.appointments.tsx": [
    get(contactAt("/appointments"), REDIRECT),
    post(contactAt("/appointments"), { startsAt: "", tz: "UTC" }, SCREEN_FORM_INVALID),
    post(contactAt("/appointments"), { startsAt: inTwoDays(), tz: "UTC", closerUserId: "" }, REDIRECT),
  ],
  "_app+/_contacts+/contacts_.$id.appointments.$appointmentId.tsx": [
    get(contactAt("/appointments/1"), REDIRECT),
    post(contactAt("/appointments/1"), { status: "sideways" }, SCREEN_FORM_INVALID),
  ],
  // One contact's TCPA packet (issue 29): anyone who may open the contact; the same scope for its CSV.
  "_app+/_contacts+/contacts_.$id_.tcpa-packet.tsx": [
    ...screen(contactAt("/tcpa-packet"), SCREEN_NO_ACTION),
    get("/contacts/999999999/tcpa-packet", SCREEN_404),
  ],
  "_app+/_contacts+/contacts_.pipeline.tsx": screen("/contacts/pipeline", SCREEN_NO_ACTION),
  // Saved segments (decision 075): anyone signed in saves one; its creator or a superuser changes it.
  "_app+/_contacts+/contacts_.segments.tsx": [
    ...screen("/contacts/segments"),
    post(
      "/contacts/segments",
      async () => ({ name: `Matrix ${crypto.randomUUID().slice(0, 8)}`, stages: "sat" }),
      REDIRECT,
    ),
  ],
  "_app+/_contacts+/contacts_.segments_.$id.tsx": [
    get(segmentAt(), SCREEN),
    get("/contacts/segments/999999999", SCREEN_404),
    post(segmentAt(), { intent: "update", name: "" }, SCREEN_FORM_INVALID),
    post(segmentAt("other"), { intent: "delete" }, { anon: 302, user: 403, superuser: 302 }),
    post(segmentAt(), { intent: "delete" }, REDIRECT),
  ],
  "_app+/_contacts+/contacts.new.tsx": screen("/contacts/new"),
  "_app+/_contacts+/contacts.$id.edit.tsx": screen(contactAt("/edit")),
  "_app+/_contacts+/contacts.$id.delete.tsx": screen(contactAt("/delete"), REDIRECT),
  "_app+/_contacts+/contacts.imports.$id.tsx": [
    ...screen("/contacts/imports/999999999", SCREEN_404, SCREEN_404, { intent: "confirm" }),
    post("/contacts/imports/999999999", { intent: "nonsense" }, SCREEN_FORM_INVALID),
  ],
  "_app+/_contacts+/contacts.upload.tsx": [
    get("/contacts/upload", SCREEN),
    { method: "POST", path: "/contacts/upload", multipart: true, expect: SCREEN_FORM_INVALID },
  ],
  // Organisation-wide reporting is superuser work (SPEC §6, decision 023).
  "_app+/_settings+/compliance.tsx": [
    ...screen("/compliance", SUPER_FORM_INVALID, SUPERUSER_SCREEN),
    get("/compliance?from=2026-01-01&to=2026-01-31", SUPERUSER_SCREEN),
    // Undo of a plain-words opt-out: a superuser's, with a note.
    post("/compliance", { intent: "undo-opt-out", id: "999999999", note: "x" }, SUPER_SCREEN_404),
    post("/compliance", { intent: "resume-sender", sender: "+15005550000" }, SUPER_SCREEN_404),
  ],
  // The 10DLC registration speaks for the organisation (decision 067); a check needs Twilio (the tests' outbox: 503).
  "_app+/_settings+/compliance_.10dlc.tsx": [
    ...screen("/compliance/10dlc", SUPER_FORM_INVALID, SUPERUSER_SCREEN),
    post("/compliance/10dlc", { intent: "refresh" }, { anon: 302, user: 403, superuser: 503 }),
  ],
  "_app+/_contacts+/contacts.quick-send.tsx": [
    get("/contacts/quick-send", SCREEN),
    { method: "POST", path: "/contacts/quick-send", multipart: true, expect: SCREEN_FORM_INVALID },
  ],
  "_app+/_contacts+/contacts.quick-send_.$id.tsx": [
    ...screen("/contacts/quick-send/999999999", SCREEN_404, SCREEN_404, { intent: "send" }),
    post("/contacts/quick-send/999999999", { intent: "nonsense" }, SCREEN_FORM_INVALID),
  ],
  "_app+/_settings+/pipeline-stages.tsx": [
    ...screen("/pipeline-stages", SUPER_FORM_INVALID, SUPERUSER_SCREEN, { intent: "create" }),
    post("/pipeline-stages", { intent: "delete", key: "no-such-stage" }, SUPER_FORM_INVALID),
  ],
  "_app+/_settings+/lead-triggers.tsx": [
    ...screen("/lead-triggers", SUPER_FORM_INVALID, SUPERUSER_SCREEN, { intent: "create" }),
    post("/lead-triggers", { intent: "delete", id: "999999999" }, SUPER_SCREEN_404),
  ],
  "_app+/_settings+/settings.webhooks.tsx": [
    ...screen("/settings/webhooks", SUPER_FORM_INVALID, SUPERUSER_SCREEN, { intent: "create" }),
    post("/settings/webhooks", { intent: "disable", id: "999999999" }, SUPER_SCREEN_404),
  ],
  "_app+/_settings+/settings.webhooks_.$id.tsx": screen(
    "/settings/webhooks/999999999",
    SUPER_SCREEN_404,
    SUPER_SCREEN_404,
    { intent: "test" },
  ),
  "_app+/_settings+/organisation.tsx": [
    ...screen("/organisation", SUPER_FORM_INVALID, SUPERUSER_SCREEN, { website: "not a url" }),
    // "Require two-factor for superusers": off is always allowed; on needs the superuser's own two-factor first.
    post("/organisation", { intent: "two-factor-policy" }, { anon: 302, user: 403, superuser: 302 }),
    post(
      "/organisation",
      { intent: "two-factor-policy", requireSuperuserTwoFactor: "on" },
      { anon: 302, user: 403, superuser: 409 },
    ),
  ],
  "_app+/_contacts+/contacts_.$id.tsx": [
    get(contactAt(), SCREEN),
    get("/contacts/999999999", SCREEN_404),
    post(contactAt(), { intent: "reply", message: "" }, SCREEN_FORM_INVALID),
    // The conversation's intents (decision 047): a note, a suggested reply (re-renders the box), send later, cancel.
    ...CONVERSATION_INTENTS(contactAt()),
  ],
  "_app+/_messages+/messages_.archives.tsx": screen("/messages/archives", SCREEN_NO_ACTION, SUPERUSER_SCREEN),
  "_app+/_messages+/messages_.conversations.tsx": [
    ...placeholder("/messages/conversations"),
    // The All view is for who may see everyone's conversations (decision 046): a standard user gets 403.
    get("/messages/conversations?view=all&state=closed", { anon: 302, user: 403, superuser: 200 }),
    get("/messages/conversations?view=unassigned&state=snoozed", SCREEN),
  ],
  "_app+/_messages+/messages_.conversations.state.tsx": [
    get("/messages/conversations/state", REDIRECT),
    post("/messages/conversations/state", { intent: "close", id: "x" }, { anon: 302, user: 400, superuser: 400 }),
    // Another user's conversation: a superuser closes it, a standard user's refusal is a destructive toast (302 both).
    post("/messages/conversations/state", withFreshId(freshConversation, { intent: "close" }), REDIRECT),
    post("/messages/conversations/state", withFreshId(freshConversation, { intent: "snooze", for: "60" }), REDIRECT),
  ],
  "_app+/_messages+/messages_.conversations.$phone.tsx": [
    ...screen("/messages/conversations/%2B14155550987", SCREEN_FORM_INVALID, SCREEN, { intent: "reply", message: "" }),
    ...CONVERSATION_INTENTS("/messages/conversations/%2B14155550987"),
  ],
  "_app+/_messages+/messages_.mentions.tsx": placeholder("/messages/mentions"),
  "_app+/_messages+/messages.tsx": [
    ...screen("/messages"),
    // The local outbox's quiet-hours switch is an organisation setting: superusers only.
    post("/messages", { intent: "local-quiet-hours", value: "off" }, { anon: 302, user: 403, superuser: 302 }),
  ],
  "_public+/login.tsx": [
    get("/login", { anon: 200, user: 302, superuser: 302 }),
    // Signed in already: the action answers 400, then the loader sends the user home.
    post("/login", {}, { anon: 400, user: 302, superuser: 302 }),
    // The two-factor step without a pending sign-in: back to the start.
    post("/login", { intent: "code", code: "123456" }, REDIRECT),
  ],
  "_public+/logout.tsx": [get("/logout", REDIRECT), { ...post("/logout", {}, REDIRECT), freshSession: true }],
  // All contacts' evidence: superusers (decision 023); one contact's: anyone who can open the contact (everyone).
  "_session+/compliance.evidence[.]csv.ts": [
    get("/compliance/evidence.csv", SUPERUSER_SCREEN),
    get(async (c) => `/compliance/evidence.csv?contact=${await freshContact(c)}`, SCREEN),
    get("/compliance/evidence.csv?contact=999999999", SCREEN_404),
    get("/compliance/evidence.csv?contact=0x6", SCREEN_404),
    post("/compliance/evidence.csv", {}, SCREEN_NO_ACTION),
  ],
  // A month with nothing archived is a 404 for a superuser (downloads themselves: archive-old-messages.test.ts).
  "_session+/messages.archives.$month.ts": [
    get("/messages/archives/1999-01", SUPER_SCREEN_404),
    get("/messages/archives/not-a-month?file=2", SUPER_SCREEN_404),
    post("/messages/archives/1999-01", {}, SCREEN_NO_ACTION),
  ],
  // A file that does not exist is a 404 for both roles (serving one: inbound-media.test.ts).
  "_session+/media.$id.ts": [
    get("/media/999999999", SCREEN_404),
    get("/media/not-an-id", SCREEN_404),
    post("/media/1", {}, SCREEN_NO_ACTION),
  ],
  "_session+/campaigns.$id.check[.]csv.ts": [
    // A fresh campaign has no step yet: nothing to list (409, "Add at least one active step …").
    get(campaignAt("/check.csv"), { anon: 302, user: 409, superuser: 409 }),
    get("/campaigns/999999999/check.csv", SCREEN_404),
    post(campaignAt("/check.csv"), {}, SCREEN_NO_ACTION),
  ],
  "_session+/contacts.$id.tcpa-packet[.]csv.ts": [
    get(contactAt("/tcpa-packet.csv"), SCREEN),
    get("/contacts/999999999/tcpa-packet.csv", SCREEN_404),
    post(contactAt("/tcpa-packet.csv"), {}, SCREEN_NO_ACTION),
  ],
  "_session+/testing.recipients[.]csv.ts": [
    post("/testing/recipients.csv", { type: "sms", content: "Hi {{firstName}}", contactIds: "999999999" }, SCREEN),
    post("/testing/recipients.csv", { type: "sms", content: "" }, { anon: 302, user: 400, superuser: 400 }),
    get("/testing/recipients.csv", SCREEN_405),
  ],
  "_session+/contacts.download.ts": [
    get("/contacts/download?format=csv", SCREEN),
    post("/contacts/download", {}, SCREEN_NO_ACTION),
  ],
  "_session+/contacts.template[.]csv.ts": placeholder("/contacts/template.csv"),
  // No login by design: the signed token is the authority.
  "_public+/unsubscribe.$token.tsx": [
    ...screen(unsubscribeAt(), PUBLIC(200), PUBLIC(200)),
    get("/unsubscribe/forged.token", PUBLIC(404)),
  ],
  // The same for the booking page: no login, the signed link names the contact; a pick that is not a time is a 400.
  "_public+/book.$token.tsx": [
    get(bookingAt, PUBLIC(200)),
    post(bookingAt, { slot: "soon" }, PUBLIC(400)),
    get("/book/1.99999.forgedforgedforgedforged", PUBLIC(404)),
  ],
  // A tracked link (decision 068): no login, the signed code names the message; a made-up code is a 404 for anyone.
  "_public+/l.$code.ts": [get("/l/1A0BBBBBBBBBB", PUBLIC(404)), post("/l/1A0BBBBBBBBBB", {}, PUBLIC(405))],
  // A sent picture (decision 076): a forged signature is a 404 for everyone; nothing to post.
  "_public+/mms.$token.ts": [
    get(`/mms/1.0.${"A".repeat(43)}`, PUBLIC(404)),
    post(`/mms/1.0.${"A".repeat(43)}`, {}, PUBLIC(405)),
  ],
  "_public+/unsubscribe.$token.one-click.ts": [
    post(unsubscribeAt("/one-click"), { "List-Unsubscribe": "One-Click" }, PUBLIC(200)),
    post("/unsubscribe/forged.token/one-click", {}, PUBLIC(404)),
    get(unsubscribeAt("/one-click"), PUBLIC(405)),
  ],
  // Signature-checked, never session-checked: an unsigned call is 403 whoever sends it.
  "webhooks+/twilio.sms.ts": [
    post("/webhooks/twilio/sms", { MessageSid: "SMmatrix", From: "+15005550006", Body: "hi" }, PUBLIC(403)),
    get("/webhooks/twilio/sms", PUBLIC(405)),
  ],
  "webhooks+/twilio.status.ts": [
    post("/webhooks/twilio/status", { MessageSid: "SMmatrix", MessageStatus: "delivered" }, PUBLIC(403)),
    get("/webhooks/twilio/status", PUBLIC(405)),
  ],
  "api+/$.ts": [get("/api/no-such-endpoint", API_404), postJson("/api/no-such-endpoint", {}, API_404)],
  "_public+/api.auth.login.ts": [postJson("/api/auth/login", {}, PUBLIC(400)), get("/api/auth/login", PUBLIC(405))],
  "api+/_account+/auth.logout.ts": [
    { ...postJson("/api/auth/logout", {}, API_204), freshSession: true },
    get("/api/auth/logout", API_405),
  ],
  "api+/_account+/auth.me.ts": [get("/api/auth/me", API), postJson("/api/auth/me", {}, PUBLIC(405))],
  // The public API v1 (issue 26 item 5): the same guard as /api; the contract itself is public.
  "api+/_contacts+/v1.contacts.ts": apiCollection("/api/v1/contacts", { other: { method: "DELETE" } }),
  "api+/_contacts+/v1.contacts.$id.ts": [
    get(freshPath("/api/v1/contacts", freshContact), API),
    { method: "PATCH", path: freshPath("/api/v1/contacts", freshContact), json: [], expect: API_INVALID },
    { method: "DELETE", path: freshPath("/api/v1/contacts", freshContact), expect: API_405 },
  ],
  "api+/_contacts+/v1.contacts.$id.messages.ts": apiCollection(
    freshPath("/api/v1/contacts", freshContact, "/messages"),
    {
      other: { method: "PUT", json: {} },
    },
  ),
  "api+/_campaigns+/v1.campaigns.ts": apiGet("/api/v1/campaigns"),
  "api+/_campaigns+/v1.campaigns.$id.ts": [
    get(freshPath("/api/v1/campaigns", freshCampaign), API),
    { method: "PUT", path: freshPath("/api/v1/campaigns", freshCampaign), json: {}, expect: API_405 },
  ],
  "api+/_campaigns+/v1.campaigns.$id.enrolments.ts": apiCollection(
    freshPath("/api/v1/campaigns", freshCampaign, "/enrolments"),
    { other: { method: "DELETE" } },
  ),
  "api+/_campaigns+/v1.campaigns.$id.enrolments.$contactId.stop.ts": apiPost(freshEnrolmentStop, [[{}, API]]),
  "_public+/api.v1.openapi[.]json.ts": [
    get("/api/v1/openapi.json", PUBLIC(200)),
    postJson("/api/v1/openapi.json", {}, PUBLIC(405)),
  ],
  "_public+/api.v1.docs.tsx": [get("/api/v1/docs", PUBLIC(200)), post("/api/v1/docs", {}, PUBLIC(405))],
  "_public+/sw[.]js.ts": [get("/sw.js", PUBLIC(200)), post("/sw.js", {}, PUBLIC(405))],
  "_public+/manifest[.]webmanifest.ts": [
    get("/manifest.webmanifest", PUBLIC(200)),
    post("/manifest.webmanifest", {}, PUBLIC(405)),
  ],
  "api+/_contacts+/contacts.ts": apiCollection("/api/contacts", { other: { method: "DELETE" } }),
  "api+/_contacts+/contacts.$id.ts": apiRecord(
    freshPath("/api/contacts", freshContact),
    [[{ email: "not-an-email" }, API_INVALID]],
    "PATCH",
  ),
  "api+/_contacts+/contacts.bulk.ts": apiPost("/api/contacts/bulk", [[[], API_INVALID]]),
  "api+/_campaigns+/campaigns.ts": apiCollection("/api/campaigns", { other: { method: "DELETE" } }),
  "api+/_campaigns+/campaigns.$id.ts": apiRecord(apiCampaignAt(), [[{ name: "" }, API_INVALID]], "PATCH"),
  "api+/_campaigns+/campaigns.$id.$command.ts": [
    // A draft without steps or contacts cannot start: 409 with a message.
    ...apiPost(apiCampaignAt("/start"), [[{}, API_409]]),
    // Pausing a draft is an invalid transition.
    postJson(apiCampaignAt("/pause"), {}, API_409),
    ...apiPost(apiCampaignAt("/contacts"), [[{}, API_INVALID]]),
    postJson(apiCampaignAt("/archive"), {}, API_404),
    get(apiCampaignAt("/archive"), API_404),
  ],
  "api+/_campaigns+/campaign-steps.ts": apiPost("/api/campaign-steps", [[{}, API_INVALID]]),
  // GET takes a campaign id (SPEC §7), PUT/DELETE a step id.
  "api+/_campaigns+/campaign-steps.$id.ts": apiRecord(
    freshPath("/api/campaign-steps", freshStep),
    [[{ name: "" }, API_INVALID]],
    "POST",
    freshPath("/api/campaign-steps", freshCampaign),
  ),
  "api+/_account+/users.ts": apiCollection("/api/users", { other: { method: "DELETE" }, answers: SUPERUSERS }),
  "api+/_account+/users.$id.ts": [
    get(async () => `/api/users/${await freshUser()}`, SUPER_API),
    get("/api/users/999999999", { anon: 401, user: 403, superuser: 404 }),
    { method: "PUT", path: async () => `/api/users/${await freshUser()}`, json: {}, expect: SUPER_API_INVALID },
    {
      method: "PUT",
      path: async () => `/api/users/${await freshUser()}`,
      json: { smsSender: "not a number" },
      expect: SUPER_API_INVALID,
    },
    postJson(async () => `/api/users/${await freshUser()}`, {}, SUPER_API_405),
  ],
  "api+/_analytics+/analytics.users.ts": apiGet("/api/analytics/users", SUPERUSERS),
  "api+/_analytics+/analytics.activity.ts": [
    ...apiGet("/api/analytics/activity", SUPERUSERS),
    get("/api/analytics/activity?limit=0", SUPER_API_INVALID),
  ],
  "api+/_messages+/templates.ts": apiCollection("/api/templates", { other: { method: "DELETE" } }),
  "api+/_messages+/templates.$id.ts": apiRecord(
    freshPath("/api/templates", freshTemplate),
    [[{ name: "" }, API_INVALID]],
    "PATCH",
  ),
  "_app+/_responders+/alerts.tsx": screen("/alerts", SCREEN_FORM_INVALID, SCREEN, { intent: "acknowledge" }),
  "api+/_responders+/auto-responders.ts": apiCollection("/api/auto-responders", {
    invalid: { name: "x" },
    other: { method: "PUT", json: {} },
  }),
  "api+/_responders+/auto-responders.$id.ts": apiRecord(
    freshPath("/api/auto-responders", freshResponder),
    [
      [{ isActive: false }, API],
      [{ keywords: [] }, API_INVALID],
    ],
    "POST",
  ),
  "api+/_responders+/alert-profiles.ts": apiCollection("/api/alert-profiles", { invalid: { name: "x" } }),
  "api+/_responders+/alert-profiles.$id.ts": apiRecord(
    freshPath("/api/alert-profiles", freshProfile),
    [[{ isActive: false }, API]],
    "POST",
  ),
  "api+/_responders+/keyword-banks.ts": apiCollection("/api/keyword-banks", { invalid: { category: "Scheduling" } }),
  "api+/_responders+/keyword-banks.$id.ts": apiRecord(
    freshPath("/api/keyword-banks", freshBank),
    [[{ isActive: false }, API]],
    "POST",
  ),
  "api+/_responders+/test-smart-alert.ts": apiPost("/api/test-smart-alert", [[{ message: " " }, API_INVALID]]),
  "api+/_analytics+/ai-analytics.ts": apiGet("/api/ai-analytics"),
  "api+/_analytics+/stats.ts": apiGet("/api/stats"),
  "api+/_messages+/messages.$send.ts": [
    postJson("/api/messages/send", {}, API_INVALID),
    postJson("/api/messages/send-broadcast", {}, API_INVALID),
    postJson("/api/messages/send-individual", {}, API_INVALID),
    postJson("/api/messages/no-such-send", {}, API_404),
    get("/api/messages/send", API_405),
    get("/api/messages/send-broadcast", API_405),
  ],
  "api+/_testing+/test.$kind.ts": [
    postJson("/api/test/manual-email", {}, API_INVALID),
    postJson("/api/test/manual-sms", {}, API_INVALID),
    postJson("/api/test/no-such-test", {}, API_404),
    get("/api/test/manual-sms", API_405),
  ],
  // A session may post leads too (the key's scope is for keys); `{}` is one lead with no fields: 422.
  "api+/_contacts+/v1.leads.ts": apiPost("/api/v1/leads", [[{}, { anon: 401, user: 422, superuser: 422 }]]),
  // Anyone's own booking hours (decision 058); an unknown zone is refused back to the screen.
  "_app+/_account+/account_.availability.tsx": [
    get("/account/availability", SCREEN),
    post("/account/availability", { tz: "" }, SCREEN_FORM_INVALID),
  ],
  "_app+/_account+/account_.api-keys.tsx": [
    ...screen("/account/api-keys"),
    post("/account/api-keys", { intent: "revoke", id: "999999999" }, SCREEN_404),
  ],
  "api+/_messages+/messages.ts": [get("/api/messages", API), postJson("/api/messages", {}, PUBLIC(405))],
};
// Every route module, found at test time (Vite resolves the glob when the test is transformed).
const ROUTE_FILES = Object.keys(
  import.meta.glob(["./**/*.ts", "./**/*.tsx", "!./**/*.test.ts", "!./**/*.test.tsx"]),
).map((p) => p.replace(/^\.\//, ""));

describe("route × role matrix", () => {
  it("lists every route module under app/routes, and nothing else", () => {
    expect(ROUTE_FILES.length).toBeGreaterThan(30);
    expect(
      ROUTE_FILES.filter((f) => !(f in MATRIX)),
      "route modules missing from MATRIX",
    ).toEqual([]);
    expect(
      Object.keys(MATRIX).filter((f) => !ROUTE_FILES.includes(f)),
      "MATRIX entries with no module",
    ).toEqual([]);
    for (const [file, cases] of Object.entries(MATRIX)) expect(cases.length, file).toBeGreaterThan(0);
  });

  const sessions: Partial<Record<Who, { cookie: string; userId: number; login: () => Promise<string> }>> = {};
  beforeAll(async () => {
    for (const role of ["user", "superuser"] as const) {
      const u = await createTestUser({ role });
      sessions[role] = { cookie: await loginAs(u), userId: u.id, login: () => loginAs(u) };
    }
    const owner = await createTestUser();
    sessions.anon = { cookie: "", userId: owner.id, login: async () => "" };
    await createTestContact(owner.id); // the download has something to export
    unsubscribe = await unsubscribeToken("test-session-secret", `matrix${crypto.randomUUID().slice(0, 8)}@example.com`);
  });

  const rows = Object.entries(MATRIX).flatMap(([file, cases]) =>
    cases.flatMap((c, i) =>
      (["anon", "user", "superuser"] as const).map((who) => ({
        name: `${file} #${i + 1} ${c.method} as ${who}`,
        c,
        who,
      })),
    ),
  );

  it.each(rows)("$name", async ({ c, who }) => {
    const s = sessions[who]!;
    const cookie = c.freshSession ? await s.login() : s.cookie;
    const path = typeof c.path === "string" ? c.path : await c.path({ who, userId: s.userId });
    let body: BodyInit | undefined;
    if (c.form)
      body = new URLSearchParams(typeof c.form === "function" ? await c.form({ who, userId: s.userId }) : c.form);
    if (c.multipart) body = new FormData();
    const res = await call(path, { method: c.method, cookie: cookie || undefined, body, json: c.json });
    await res.arrayBuffer();
    expect(res.status, `${c.method} ${path}`).toBe(c.expect[who]);
    // Every anonymous redirect from a guarded screen goes to the sign-in screen.
    if (who === "anon" && res.status === 302 && !/^\/(login|logout)/.test(path))
      expect(res.headers.get("Location")).toBe("/login");
  });
});

/**
 * The same matrix with an API key instead of a cookie (decision 035), for every /api case the guard answers first
 * (an anonymous caller gets 401): a key with every scope gets what its owner's session gets — or 403 where no key
 * may go (`scopeFor` null); a key without the needed scope 403; an unknown, revoked or expired key 401. Each call
 * uses fresh keys, so the per-key rate limit never answers for the matrix.
 */
describe("route × role matrix with API keys", () => {
  const owners: Partial<Record<"user" | "superuser", number>> = {};
  beforeAll(async () => {
    for (const role of ["user", "superuser"] as const) owners[role] = (await createTestUser({ role })).id;
  });
  const keyed = Object.entries(MATRIX).flatMap(([file, cases]) =>
    cases
      .filter((c) => c.expect.anon === 401 && !c.freshSession && !c.multipart && !c.form)
      .flatMap((c, i) =>
        (["user", "superuser"] as const).map((who) => ({
          name: `${file} #${i + 1} ${c.method} by ${who}'s key`,
          c,
          who,
        })),
      ),
  );

  it("covers the /api routes", () => expect(keyed.length).toBeGreaterThan(60));

  it.each(keyed)(
    "$name",
    async ({ c, who }) => {
      const userId = owners[who]!;
      const resolve = async () => (typeof c.path === "string" ? c.path : await c.path({ who, userId }));
      const send = async (secret: string) => {
        const path = await resolve();
        const res = await call(path, { method: c.method, json: c.json, headers: bearer(secret) });
        await res.arrayBuffer();
        return { path, status: res.status };
      };
      const full = await send((await createTestApiKey(userId)).secret);
      const needed = neededScope(c.method, full.path.split("?")[0]);
      expect(full.status, `${c.method} ${full.path} with every scope`).toBe(needed === null ? 403 : c.expect[who]);
      if (needed === "any") {
        // A method the operation does not serve: 405 with a key of any one scope (GET /api/v1/leads, a leads key).
        for (const scope of API_KEY_SCOPES) {
          const one = await send((await createTestApiKey(userId, [scope])).secret);
          expect(one.status, `${c.method} ${one.path} with only ${scope}`).toBe(c.expect[who]);
        }
      } else {
        const others = API_KEY_SCOPES.filter((s) => s !== needed) as ApiKeyScope[];
        const wrong = await send((await createTestApiKey(userId, others)).secret);
        expect(wrong.status, `${c.method} ${wrong.path} without its scope`).toBe(403);
      }
      for (const opts of [{ revoked: true }, { expired: true }]) {
        const bad = await send((await createTestApiKey(userId, [...API_KEY_SCOPES], opts)).secret);
        expect(bad.status, `${c.method} ${bad.path} ${Object.keys(opts)[0]}`).toBe(401);
      }
      const unknown = await send(`helio_${"x".repeat(43)}`);
      expect(unknown.status, `${c.method} ${unknown.path} unknown key`).toBe(401);
    },
    30_000,
  ); // five keys and five calls each, on a busy machine
});

/**
 * Contact scope (decision 048): a standard user sees their own and unowned contacts. Every route that takes one
 * contact (by id, or by number for a conversation) answers user B on user A's contact exactly as on a contact that
 * does not exist — 404 — and as usual on an unowned one; a superuser, or anyone once "Every user sees all contacts"
 * is on, as usual. The /api cases run with B's session and with B's API key (the key acts as its owner).
 */
describe("route × contact owner (decision 048)", () => {
  type ContactCall = { method: Case["method"]; path: (c: { id: number; phone: string }) => string } & Pick<
    Case,
    "form" | "json"
  > & { ok: number; api?: true };
  const id =
    (suffix = "", prefix = "/contacts") =>
    (c: { id: number }) =>
      `${prefix}/${c.id}${suffix}`;
  const CALLS: Record<string, ContactCall[]> = {
    "_app+/_contacts+/contacts_.$id.tsx": [
      { method: "GET", path: id(), ok: 200 },
      { method: "POST", path: id(), form: { intent: "replace", message: "Hi" }, ok: 200 },
    ],
    "_app+/_contacts+/contacts.$id.edit.tsx": [
      { method: "GET", path: id("/edit"), ok: 200 },
      { method: "POST", path: id("/edit"), form: {}, ok: 400 },
    ],
    "_app+/_contacts+/contacts.$id.delete.tsx": [
      { method: "GET", path: id("/delete"), ok: 200 },
      { method: "POST", path: id("/delete"), form: {}, ok: 302 },
    ],
    "_app+/_contacts+/contacts_.$id.owner.tsx": [
      { method: "POST", path: id("/owner"), form: { ownerUserId: "" }, ok: 302 },
    ],
    "_app+/_contacts+/contacts_.$id.stage.tsx": [
      { method: "POST", path: id("/stage"), form: { stage: "sat" }, ok: 302 },
    ],
    "_app+/_contacts+/contacts_.$id.tags.tsx": [
      { method: "POST", path: id("/tags"), form: { intent: "add", tag: "hoa" }, ok: 302 },
    ],
    "_app+/_contacts+/contacts_.$id.savings.tsx": [
      { method: "POST", path: id("/savings"), form: { monthlyBill: "150" }, ok: 302 },
    ],
    "_app+/_contacts+/contacts_.$id.appointments.tsx": [
      { method: "POST", path: id("/appointments"), form: { startsAt: inTwoDays(), tz: "UTC" }, ok: 302 },
    ],
    "_app+/_messages+/messages_.conversations.$phone.tsx": [
      { method: "GET", path: (c) => `/messages/conversations/${encodeURIComponent(c.phone)}`, ok: 302 },
      {
        method: "POST",
        path: (c) => `/messages/conversations/${encodeURIComponent(c.phone)}`,
        form: { intent: "replace", message: "Hi" },
        // The page it re-renders is the number's contact's: its loader redirects there.
        ok: 302,
      },
    ],
    "api+/_contacts+/contacts.$id.ts": [
      { method: "GET", path: id("", "/api/contacts"), ok: 200, api: true },
      { method: "PUT", path: id("", "/api/contacts"), json: { company: "Matrix" }, ok: 200, api: true },
      { method: "DELETE", path: id("", "/api/contacts"), ok: 204, api: true },
    ],
    "api+/_contacts+/v1.contacts.$id.ts": [
      { method: "GET", path: id("", "/api/v1/contacts"), ok: 200, api: true },
      { method: "PATCH", path: id("", "/api/v1/contacts"), json: { company: "Matrix" }, ok: 200, api: true },
    ],
    "api+/_contacts+/v1.contacts.$id.messages.ts": [
      { method: "GET", path: id("/messages", "/api/v1/contacts"), ok: 200, api: true },
      { method: "POST", path: id("/messages", "/api/v1/contacts"), json: { message: "Hi" }, ok: 202, api: true },
    ],
    "api+/_messages+/messages.$send.ts": [
      {
        method: "POST",
        path: () => "/api/messages/send-individual",
        json: "contactId",
        ok: 202,
        api: true,
      },
    ],
  };
  const rows = Object.entries(CALLS).flatMap(([file, calls]) =>
    calls.flatMap((c, i) =>
      (c.api ? (["session", "key"] as const) : (["session"] as const)).map((by) => ({
        name: `${file} #${i + 1} ${c.method} by ${by}`,
        c,
        by,
      })),
    ),
  );
  const ids = { a: 0, b: 0, s: 0 };
  const cookies = { b: "", s: "" };
  let keyB = "";
  beforeAll(async () => {
    const [a, b, s] = [await createTestUser(), await createTestUser(), await createTestUser({ role: "superuser" })];
    Object.assign(ids, { a: a.id, b: b.id, s: s.id });
    Object.assign(cookies, { b: await loginAs(b), s: await loginAs(s) });
    keyB = (await createTestApiKey(b.id)).secret;
  });
  const contactOf = async (owner: number | null) => {
    const c = await createTestContact(ids.a);
    await db().update(contacts).set({ ownerUserId: owner }).where(eq(contacts.id, c.id));
    return c;
  };
  const callAs = async (who: "b" | "s", by: "session" | "key", c: ContactCall, owner: number | null) => {
    const contact = await contactOf(owner);
    const path = c.path(contact);
    const json = c.json === "contactId" ? { contactId: contact.id, message: "Hi" } : c.json;
    const auth = by === "key" ? { headers: bearer(keyB) } : { cookie: cookies[who] };
    const body = c.form ? new URLSearchParams(c.form as Record<string, string>) : undefined;
    const res = await call(path, { method: c.method, body, json, ...auth });
    await res.arrayBuffer();
    return { status: res.status, path };
  };

  it("covers every route module that takes one contact", () => {
    for (const file of Object.keys(CALLS)) expect(ROUTE_FILES, file).toContain(file);
  });

  it.each(rows)(
    "$name: 404 on another rep's contact, as usual on an unowned one and for a superuser",
    async ({ c, by }) => {
      const theirs = await callAs("b", by, c, ids.a);
      expect(theirs.status, `${c.method} ${theirs.path} (A's)`).toBe(404);
      const unowned = await callAs("b", by, c, null);
      expect(unowned.status, `${c.method} ${unowned.path} (unowned)`).toBe(c.ok);
      const own = await callAs("b", by, c, ids.b);
      expect(own.status, `${c.method} ${own.path} (B's own)`).toBe(c.ok);
      if (by === "session") {
        const sup = await callAs("s", by, c, ids.a);
        expect(sup.status, `${c.method} ${sup.path} (superuser)`).toBe(c.ok);
      }
    },
    30_000,
  );

  it("the setting “Every user sees all contacts” opens A's contacts to B on every one of those routes", async () => {
    const set = (on: boolean) =>
      call("/organisation", {
        method: "POST",
        cookie: cookies.s,
        body: new URLSearchParams(
          on ? { intent: "contact-visibility", everyUserSeesAll: "on" } : { intent: "contact-visibility" },
        ),
      });
    // A standard user may not change it.
    const refused = await call("/organisation", {
      method: "POST",
      cookie: cookies.b,
      body: new URLSearchParams({ intent: "contact-visibility", everyUserSeesAll: "on" }),
    });
    expect(refused.status).toBe(403);
    expect((await set(true)).status).toBe(302);
    try {
      for (const { c, by, name } of rows) {
        const r = await callAs("b", by, c, ids.a);
        expect(r.status, name).toBe(c.ok);
      }
    } finally {
      expect((await set(false)).status).toBe(302);
    }
    expect((await callAs("b", "session", CALLS["_app+/_contacts+/contacts_.$id.tsx"][0], ids.a)).status).toBe(404);
  }, 60_000);
});
