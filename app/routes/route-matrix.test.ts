import { beforeAll, describe, expect, it } from "vitest";
import { unsubscribeToken } from "~/messaging/unsubscribe.server";
import { addCampaignStep } from "~/campaigns/add-campaign-step.server";
import { checkStep } from "~/campaigns/campaign-schema";
import { createCampaign } from "~/campaigns/create-campaign.server";
import { createTemplate } from "~/templates/create-template.server";
import { parseBank, parseProfile } from "~/responders/alerts/alert-schema";
import { createBank, createProfile } from "~/responders/alerts/manage-alert-settings.server";
import { createResponder } from "~/responders/create-responder.server";
import { parseResponder } from "~/responders/responder-schema";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { bearer, createTestApiKey } from "../../tests/api-key-factory";
import { API_KEY_SCOPES, scopeFor, type ApiKeyScope } from "~/auth/api-key-scopes";
import { OPERATIONS } from "~/http/api-v1/operations";

/**
 * The scope a key needs: /api/v1 routes declare theirs per operation (decision 038), and ask for `read` on a method
 * they do not serve (then 405); the rest of /api follows scopeFor.
 */
function neededScope(method: string, path: string): ApiKeyScope | null {
  if (!path.startsWith("/api/v1/")) return scopeFor(method, path);
  const matching = OPERATIONS.filter((o) => new RegExp(`^${o.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path));
  return matching.find((o) => o.method === method.toLowerCase())?.scope ?? (matching.length ? "read" : null);
}

const SUPER_API: Statuses = { anon: 401, user: 403, superuser: 200 };
const SUPER_API_INVALID: Statuses = { anon: 401, user: 403, superuser: 400 };
const SUPER_API_405: Statuses = { anon: 401, user: 403, superuser: 405 };
const SUPER_FORM_INVALID: Statuses = { anon: 302, user: 403, superuser: 400 };
const freshUser = async () => (await createTestUser()).id;
import { createTestContact } from "../../tests/contact-factory";

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
      { userId: ctx.userId, ipAddress: null },
      new Date(),
    )
  ).id;
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
const freshResponder = async () =>
  (
    await createResponder(
      db(),
      parseResponder({
        name: "Matrix",
        isActive: false,
        keywords: [`mx${crypto.randomUUID().slice(0, 8)}`],
        responses: { primary: "hi" },
      }),
      new Date(),
    )
  ).id;
const freshProfile = async () =>
  (
    await createProfile(
      db(),
      parseProfile({ name: "Matrix", isActive: false, keywords: `mx${crypto.randomUUID().slice(0, 8)}` }),
      new Date(),
    )
  ).id;
const freshBank = async () =>
  (
    await createBank(
      db(),
      parseBank({ category: "Scheduling", isActive: false, keywords: `mx${crypto.randomUUID().slice(0, 8)}` }),
      new Date(),
    )
  ).id;
let unsubscribe = "";

const placeholder = (path: string): Case[] => [
  { method: "GET", path, expect: SCREEN },
  { method: "POST", path, form: {}, expect: SCREEN_NO_ACTION },
];

/** File name under app/routes → its cases. */
const MATRIX: Record<string, Case[]> = {
  // Pathless layout: guards every screen below it; reached through "/".
  "_app+/_layout.tsx": [{ method: "GET", path: "/", expect: SCREEN }],
  "_app+/_index.tsx": placeholder("/"),
  "_app+/$.tsx": [
    { method: "GET", path: "/no-such-screen", expect: { anon: 302, user: 404, superuser: 404 } },
    { method: "POST", path: "/no-such-screen", form: {}, expect: { anon: 302, user: 405, superuser: 405 } },
  ],
  "_app+/_analytics+/analytics.tsx": placeholder("/analytics"),
  "_app+/_responders+/auto-responder.tsx": [
    { method: "GET", path: "/auto-responder", expect: SCREEN },
    {
      method: "POST",
      path: "/auto-responder",
      form: { isActive: "true" },
      expect: { anon: 302, user: 404, superuser: 404 },
    },
  ],
  "_app+/_responders+/auto-responder.new.tsx": [
    { method: "GET", path: "/auto-responder/new", expect: SCREEN },
    { method: "POST", path: "/auto-responder/new", form: { intent: "tab:ai", name: "x" }, expect: SCREEN },
    { method: "POST", path: "/auto-responder/new", form: { intent: "save" }, expect: SCREEN_FORM_INVALID },
  ],
  "_app+/_responders+/auto-responder.$id.edit.tsx": [
    { method: "GET", path: async () => `/auto-responder/${await freshResponder()}/edit`, expect: SCREEN },
    {
      method: "POST",
      path: async () => `/auto-responder/${await freshResponder()}/edit`,
      form: { intent: "save" },
      expect: SCREEN_FORM_INVALID,
    },
  ],
  "_app+/_responders+/auto-responder.$id.delete.tsx": [
    { method: "GET", path: async () => `/auto-responder/${await freshResponder()}/delete`, expect: SCREEN },
    {
      method: "POST",
      path: async () => `/auto-responder/${await freshResponder()}/delete`,
      form: {},
      expect: PUBLIC(302),
    },
  ],
  "_app+/_campaigns+/campaigns.tsx": [
    { method: "GET", path: "/campaigns", expect: SCREEN },
    { method: "POST", path: "/campaigns", form: {}, expect: SCREEN_FORM_INVALID },
    {
      method: "POST",
      path: "/campaigns",
      form: { intent: "pause", id: "999999999" },
      expect: { anon: 302, user: 302, superuser: 302 },
    },
  ],
  "_app+/_campaigns+/campaigns.new.tsx": [
    { method: "GET", path: "/campaigns/new?q=a", expect: SCREEN },
    { method: "POST", path: "/campaigns/new", form: {}, expect: SCREEN_FORM_INVALID },
  ],
  "_app+/_campaigns+/campaigns.$id.edit.tsx": [
    { method: "GET", path: async (c) => `/campaigns/${await freshCampaign(c)}/edit`, expect: SCREEN },
    {
      method: "POST",
      path: async (c) => `/campaigns/${await freshCampaign(c)}/edit`,
      form: {},
      expect: SCREEN_FORM_INVALID,
    },
  ],
  "_app+/_campaigns+/campaigns.$id.delete.tsx": [
    { method: "GET", path: async (c) => `/campaigns/${await freshCampaign(c)}/delete`, expect: SCREEN },
    {
      method: "POST",
      path: async (c) => `/campaigns/${await freshCampaign(c)}/delete`,
      form: {},
      expect: { anon: 302, user: 302, superuser: 302 },
    },
  ],
  "_app+/_campaigns+/campaigns.$id.contacts.tsx": [
    { method: "GET", path: async (c) => `/campaigns/${await freshCampaign(c)}/contacts`, expect: SCREEN },
    {
      method: "POST",
      path: async (c) => `/campaigns/${await freshCampaign(c)}/contacts`,
      form: {},
      expect: SCREEN_FORM_INVALID,
    },
  ],
  "_app+/_campaigns+/campaigns.$id.steps.tsx": [
    { method: "GET", path: async (c) => `/campaigns/${await freshCampaign(c)}/steps`, expect: SCREEN },
    { method: "GET", path: "/campaigns/999999999/steps", expect: { anon: 302, user: 404, superuser: 404 } },
    {
      method: "POST",
      path: async (c) => `/campaigns/${await freshCampaign(c)}/steps`,
      form: { intent: "add" },
      expect: SCREEN_FORM_INVALID,
    },
    {
      method: "POST",
      path: async (c) => `/campaigns/${await freshCampaign(c)}/steps`,
      form: { intent: "toggle", stepId: "999999999", isActive: "false" },
      expect: { anon: 302, user: 404, superuser: 404 },
    },
  ],
  "_session+/idea-generator.stream.ts": [
    { method: "GET", path: "/idea-generator/stream", expect: { anon: 302, user: 405, superuser: 405 } },
    // An empty message is ignored: 204, nothing streamed or stored.
    {
      method: "POST",
      path: "/idea-generator/stream",
      form: { message: " " },
      expect: { anon: 302, user: 204, superuser: 204 },
    },
  ],
  "_app+/_ai+/idea-generator.tsx": [
    { method: "GET", path: "/idea-generator", expect: SCREEN },
    // An empty message is ignored: back to the thread.
    { method: "POST", path: "/idea-generator", form: { intent: "send", message: " " }, expect: PUBLIC(302) },
    { method: "POST", path: "/idea-generator", form: { intent: "clear" }, expect: PUBLIC(302) },
  ],
  "_session+/ai.generate-step.ts": [
    { method: "GET", path: "/ai/generate-step", expect: { anon: 302, user: 405, superuser: 405 } },
    // Without a campaign: back to the editor with the error in the query.
    { method: "POST", path: "/ai/generate-step", form: { returnTo: "/campaigns" }, expect: PUBLIC(302) },
  ],
  "api+/_ai+/ai.chat.ts": [
    { method: "GET", path: "/api/ai/chat", expect: API_405 },
    { method: "POST", path: "/api/ai/chat", json: {}, expect: API_INVALID },
    { method: "POST", path: "/api/ai/chat", json: { message: "Ideas for a referral campaign" }, expect: API },
  ],
  "api+/_ai+/ai.generate-email.ts": [
    { method: "GET", path: "/api/ai/generate-email", expect: API_405 },
    { method: "POST", path: "/api/ai/generate-email", json: {}, expect: API_INVALID },
    { method: "POST", path: "/api/ai/generate-email", json: { prompt: "Introduce our summer offer" }, expect: API },
  ],
  "api+/_ai+/ai.generate-step-content.ts": [
    { method: "GET", path: "/api/ai/generate-step-content", expect: API_405 },
    { method: "POST", path: "/api/ai/generate-step-content", json: {}, expect: API_INVALID },
    {
      method: "POST",
      path: "/api/ai/generate-step-content",
      json: { campaignName: "Spring", stepNumber: 1, messageType: "sms" },
      expect: API,
    },
  ],
  "_app+/_ai+/knowledge-base.tsx": placeholder("/knowledge-base"),
  "_app+/_responders+/smart-alerts.tsx": [
    { method: "GET", path: "/smart-alerts", expect: SCREEN },
    { method: "GET", path: "/smart-alerts?tab=banks", expect: SCREEN },
    { method: "GET", path: "/smart-alerts?tab=monitoring", expect: SCREEN },
    { method: "GET", path: async () => `/smart-alerts?tab=profiles&edit=${await freshProfile()}`, expect: SCREEN },
    { method: "GET", path: async () => `/smart-alerts?tab=banks&delete=${await freshBank()}`, expect: SCREEN },
    { method: "POST", path: "/smart-alerts", form: {}, expect: SCREEN_FORM_INVALID },
    // "Missing information": name/category and keywords are required.
    { method: "POST", path: "/smart-alerts", form: { intent: "create-profile" }, expect: SCREEN_FORM_INVALID },
    { method: "POST", path: "/smart-alerts", form: { intent: "create-bank" }, expect: SCREEN_FORM_INVALID },
    {
      method: "POST",
      path: "/smart-alerts",
      form: async () => ({ intent: "update-profile", id: String(await freshProfile()), name: "" }),
      expect: SCREEN_FORM_INVALID,
    },
    {
      method: "POST",
      path: "/smart-alerts",
      form: async () => ({ intent: "update-bank", id: String(await freshBank()), category: "" }),
      expect: SCREEN_FORM_INVALID,
    },
    {
      method: "POST",
      path: "/smart-alerts",
      form: { intent: "toggle-profile", id: "999999999", isActive: "true" },
      expect: { anon: 302, user: 404, superuser: 404 },
    },
    {
      method: "POST",
      path: "/smart-alerts",
      form: async () => ({ intent: "toggle-profile", id: String(await freshProfile()), isActive: "false" }),
      expect: PUBLIC(302),
    },
    {
      method: "POST",
      path: "/smart-alerts",
      form: async () => ({ intent: "toggle-bank", id: String(await freshBank()), isActive: "false" }),
      expect: PUBLIC(302),
    },
    {
      method: "POST",
      path: "/smart-alerts",
      form: async () => ({ intent: "delete-profile", id: String(await freshProfile()) }),
      expect: PUBLIC(302),
    },
    {
      method: "POST",
      path: "/smart-alerts",
      form: async () => ({ intent: "delete-bank", id: String(await freshBank()) }),
      expect: PUBLIC(302),
    },
    {
      method: "POST",
      path: "/smart-alerts",
      form: { intent: "delete-bank", id: "999999999" },
      expect: { anon: 302, user: 404, superuser: 404 },
    },
    { method: "POST", path: "/smart-alerts", form: { intent: "mark", id: "999999999" }, expect: SCREEN_FORM_INVALID },
    {
      method: "POST",
      path: "/smart-alerts",
      form: { intent: "mark", id: "999999999", verdict: "right" },
      expect: { anon: 302, user: 404, superuser: 404 },
    },
  ],
  "_app+/_testing+/testing.tsx": [
    { method: "GET", path: "/testing?tab=broadcast&type=email", expect: SCREEN },
    { method: "POST", path: "/testing", form: { intent: "manual" }, expect: SCREEN_FORM_INVALID },
    { method: "POST", path: "/testing", form: { intent: "template" }, expect: SCREEN_FORM_INVALID },
    { method: "POST", path: "/testing", form: { intent: "check" }, expect: SCREEN_FORM_INVALID },
  ],
  "_app+/_testing+/testing_.sends.$id.tsx": [
    { method: "GET", path: "/testing/sends/999999999", expect: { anon: 302, user: 404, superuser: 404 } },
    { method: "POST", path: "/testing/sends/999999999", form: {}, expect: SCREEN_NO_ACTION },
  ],
  // Superusers only, on the server: a standard user gets 403 on the screen, its dialogs and their actions.
  "_app+/_analytics+/user-analytics.tsx": [
    { method: "GET", path: "/user-analytics", expect: SUPERUSER_SCREEN },
    { method: "GET", path: "/user-analytics?tab=details&user=999999999", expect: SUPERUSER_SCREEN },
    // No action: 405, rendered through the route's error boundary, so the layout's guard still answers anonymous.
    { method: "POST", path: "/user-analytics", form: {}, expect: { anon: 302, user: 405, superuser: 405 } },
  ],
  "_app+/_analytics+/user-analytics.new.tsx": [
    { method: "GET", path: "/user-analytics/new", expect: SUPERUSER_SCREEN },
    { method: "POST", path: "/user-analytics/new", form: {}, expect: SUPER_FORM_INVALID },
  ],
  "_app+/_analytics+/user-analytics.users.$id.tsx": [
    { method: "GET", path: async () => `/user-analytics/users/${await freshUser()}`, expect: SUPERUSER_SCREEN },
    { method: "GET", path: "/user-analytics/users/999999999", expect: { anon: 302, user: 403, superuser: 404 } },
    {
      method: "POST",
      path: async () => `/user-analytics/users/${await freshUser()}`,
      form: { intent: "nonsense" },
      expect: SUPER_FORM_INVALID,
    },
    {
      method: "POST",
      path: async () => `/user-analytics/users/${await freshUser()}`,
      form: { intent: "away" },
      expect: { anon: 302, user: 403, superuser: 302 },
    },
  ],
  "_app+/_account+/account.tsx": [
    { method: "GET", path: "/account", expect: SCREEN },
    { method: "POST", path: "/account", form: {}, expect: SCREEN_FORM_INVALID },
    {
      method: "POST",
      path: "/account",
      form: { intent: "lead-availability", available: "on" },
      expect: { anon: 302, user: 302, superuser: 302 },
    },
    {
      method: "POST",
      path: "/account",
      form: { intent: "revoke-session", sessionId: "nope" },
      expect: SCREEN_FORM_INVALID,
    },
    // Only one's own sessions: an unknown (or someone else's) id is a 404.
    {
      method: "POST",
      path: "/account",
      form: { intent: "revoke-session", sessionId: "0".repeat(64) },
      expect: { anon: 302, user: 404, superuser: 404 },
    },
  ],
  "_app+/_account+/account_.password.tsx": [
    { method: "GET", path: "/account/password", expect: SCREEN },
    { method: "POST", path: "/account/password", form: {}, expect: SCREEN_FORM_INVALID },
  ],
  "_app+/_account+/account_.two-factor.tsx": [
    { method: "GET", path: "/account/two-factor", expect: SCREEN },
    { method: "POST", path: "/account/two-factor", form: {}, expect: SCREEN_FORM_INVALID },
    // Confirming before starting: nothing to confirm.
    {
      method: "POST",
      path: "/account/two-factor",
      form: { intent: "confirm", code: "000000" },
      expect: SCREEN_FORM_INVALID,
    },
    {
      method: "POST",
      path: "/account/two-factor",
      form: { intent: "disable", password: "not the password" },
      expect: SCREEN_FORM_INVALID,
    },
  ],
  "_app+/_responders+/test-smart-alerts.tsx": [
    { method: "GET", path: "/test-smart-alerts", expect: SCREEN },
    { method: "POST", path: "/test-smart-alerts", form: { message: "" }, expect: SCREEN_FORM_INVALID },
  ],
  "_app+/_contacts+/contacts.tsx": [
    { method: "GET", path: "/contacts", expect: SCREEN },
    { method: "POST", path: "/contacts", form: {}, expect: SCREEN_FORM_INVALID },
    // Bulk "Set owner" to someone else (decision 044): only a superuser may give contacts to another user.
    {
      method: "POST",
      path: "/contacts",
      form: async (c) => ({ contactIds: String(await freshContact(c)), ownerUserId: String(await freshUser()) }),
      expect: { anon: 302, user: 403, superuser: 302 },
    },
  ],
  "_app+/_contacts+/contacts_.$id.owner.tsx": [
    {
      method: "GET",
      path: async (c) => `/contacts/${await freshContact(c)}/owner`,
      expect: { anon: 302, user: 302, superuser: 302 },
    },
    {
      method: "POST",
      path: async (c) => `/contacts/${await freshContact(c)}/owner`,
      form: { ownerUserId: "not-an-id" },
      expect: SCREEN_FORM_INVALID,
    },
    // Another user as owner: a superuser's is saved, a standard user's is refused with a destructive toast (302 both).
    {
      method: "POST",
      path: async (c) => `/contacts/${await freshContact(c)}/owner`,
      form: async () => ({ ownerUserId: String(await freshUser()), note: "Matrix" }),
      expect: { anon: 302, user: 302, superuser: 302 },
    },
  ],
  "_app+/_contacts+/contacts.new.tsx": [
    { method: "GET", path: "/contacts/new", expect: SCREEN },
    { method: "POST", path: "/contacts/new", form: {}, expect: SCREEN_FORM_INVALID },
  ],
  "_app+/_contacts+/contacts.$id.edit.tsx": [
    { method: "GET", path: async (c) => `/contacts/${await freshContact(c)}/edit`, expect: SCREEN },
    {
      method: "POST",
      path: async (c) => `/contacts/${await freshContact(c)}/edit`,
      form: {},
      expect: SCREEN_FORM_INVALID,
    },
  ],
  "_app+/_contacts+/contacts.$id.delete.tsx": [
    { method: "GET", path: async (c) => `/contacts/${await freshContact(c)}/delete`, expect: SCREEN },
    {
      method: "POST",
      path: async (c) => `/contacts/${await freshContact(c)}/delete`,
      form: {},
      expect: { anon: 302, user: 302, superuser: 302 },
    },
  ],
  "_app+/_contacts+/contacts.imports.$id.tsx": [
    { method: "GET", path: "/contacts/imports/999999999", expect: { anon: 302, user: 404, superuser: 404 } },
    {
      method: "POST",
      path: "/contacts/imports/999999999",
      form: { intent: "confirm" },
      expect: { anon: 302, user: 404, superuser: 404 },
    },
    {
      method: "POST",
      path: "/contacts/imports/999999999",
      form: { intent: "nonsense" },
      expect: { anon: 302, user: 400, superuser: 400 },
    },
  ],
  "_app+/_contacts+/contacts.upload.tsx": [
    { method: "GET", path: "/contacts/upload", expect: SCREEN },
    { method: "POST", path: "/contacts/upload", multipart: true, expect: SCREEN_FORM_INVALID },
  ],
  // Organisation-wide reporting is superuser work (SPEC §6, decision 023).
  "_app+/_settings+/compliance.tsx": [
    { method: "GET", path: "/compliance", expect: SUPERUSER_SCREEN },
    { method: "POST", path: "/compliance", form: {}, expect: SUPER_FORM_INVALID },
    { method: "GET", path: "/compliance?from=2026-01-01&to=2026-01-31", expect: SUPERUSER_SCREEN },
    // Undo of a plain-words opt-out: a superuser's, with a note.
    {
      method: "POST",
      path: "/compliance",
      form: { id: "999999999", note: "x" },
      expect: { anon: 302, user: 403, superuser: 404 },
    },
  ],
  "_app+/_contacts+/contacts.quick-send.tsx": [
    { method: "GET", path: "/contacts/quick-send", expect: SCREEN },
    { method: "POST", path: "/contacts/quick-send", multipart: true, expect: SCREEN_FORM_INVALID },
  ],
  "_app+/_contacts+/contacts.quick-send_.$id.tsx": [
    { method: "GET", path: "/contacts/quick-send/999999999", expect: { anon: 302, user: 404, superuser: 404 } },
    {
      method: "POST",
      path: "/contacts/quick-send/999999999",
      form: { intent: "send" },
      expect: { anon: 302, user: 404, superuser: 404 },
    },
    {
      method: "POST",
      path: "/contacts/quick-send/999999999",
      form: { intent: "nonsense" },
      expect: { anon: 302, user: 400, superuser: 400 },
    },
  ],
  "_app+/_settings+/lead-triggers.tsx": [
    { method: "GET", path: "/lead-triggers", expect: SUPERUSER_SCREEN },
    {
      method: "POST",
      path: "/lead-triggers",
      form: { intent: "create" },
      expect: { anon: 302, user: 403, superuser: 400 },
    },
    {
      method: "POST",
      path: "/lead-triggers",
      form: { intent: "delete", id: "999999999" },
      expect: { anon: 302, user: 403, superuser: 404 },
    },
  ],
  "_app+/_settings+/settings.webhooks.tsx": [
    { method: "GET", path: "/settings/webhooks", expect: SUPERUSER_SCREEN },
    {
      method: "POST",
      path: "/settings/webhooks",
      form: { intent: "create" },
      expect: { anon: 302, user: 403, superuser: 400 },
    },
    {
      method: "POST",
      path: "/settings/webhooks",
      form: { intent: "disable", id: "999999999" },
      expect: { anon: 302, user: 403, superuser: 404 },
    },
  ],
  "_app+/_settings+/settings.webhooks_.$id.tsx": [
    { method: "GET", path: "/settings/webhooks/999999999", expect: { anon: 302, user: 403, superuser: 404 } },
    {
      method: "POST",
      path: "/settings/webhooks/999999999",
      form: { intent: "test" },
      expect: { anon: 302, user: 403, superuser: 404 },
    },
  ],
  "_app+/_settings+/organisation.tsx": [
    { method: "GET", path: "/organisation", expect: SUPERUSER_SCREEN },
    {
      method: "POST",
      path: "/organisation",
      form: { website: "not a url" },
      expect: { anon: 302, user: 403, superuser: 400 },
    },
    // "Require two-factor for superusers": off is always allowed; on needs the superuser's own two-factor first.
    {
      method: "POST",
      path: "/organisation",
      form: { intent: "two-factor-policy" },
      expect: { anon: 302, user: 403, superuser: 302 },
    },
    {
      method: "POST",
      path: "/organisation",
      form: { intent: "two-factor-policy", requireSuperuserTwoFactor: "on" },
      expect: { anon: 302, user: 403, superuser: 409 },
    },
  ],
  "_app+/_contacts+/contacts_.$id.tsx": [
    { method: "GET", path: async (c) => `/contacts/${await freshContact(c)}`, expect: SCREEN },
    { method: "GET", path: "/contacts/999999999", expect: { anon: 302, user: 404, superuser: 404 } },
    {
      method: "POST",
      path: async (c) => `/contacts/${await freshContact(c)}`,
      form: { intent: "reply", message: "" },
      expect: SCREEN_FORM_INVALID,
    },
  ],
  "_app+/_messages+/messages_.archives.tsx": [
    { method: "GET", path: "/messages/archives", expect: SUPERUSER_SCREEN },
    { method: "POST", path: "/messages/archives", form: {}, expect: SCREEN_NO_ACTION },
  ],
  "_app+/_messages+/messages_.conversations.tsx": [
    { method: "GET", path: "/messages/conversations", expect: SCREEN },
    { method: "POST", path: "/messages/conversations", form: {}, expect: SCREEN_NO_ACTION },
  ],
  "_app+/_messages+/messages_.conversations.$phone.tsx": [
    { method: "GET", path: "/messages/conversations/%2B14155550987", expect: SCREEN },
    {
      method: "POST",
      path: "/messages/conversations/%2B14155550987",
      form: { intent: "reply", message: "" },
      expect: SCREEN_FORM_INVALID,
    },
  ],
  "_app+/_messages+/messages.tsx": [
    { method: "GET", path: "/messages", expect: SCREEN },
    { method: "POST", path: "/messages", form: {}, expect: SCREEN_FORM_INVALID },
    // The local outbox's quiet-hours switch is an organisation setting: superusers only.
    {
      method: "POST",
      path: "/messages",
      form: { intent: "local-quiet-hours", value: "off" },
      expect: { anon: 302, user: 403, superuser: 302 },
    },
  ],
  "_public+/login.tsx": [
    { method: "GET", path: "/login", expect: { anon: 200, user: 302, superuser: 302 } },
    // Signed in already: the action answers 400, then the loader sends the user home.
    { method: "POST", path: "/login", form: {}, expect: { anon: 400, user: 302, superuser: 302 } },
    // The two-factor step without a pending sign-in: back to the start.
    { method: "POST", path: "/login", form: { intent: "code", code: "123456" }, expect: PUBLIC(302) },
  ],
  "_public+/logout.tsx": [
    { method: "GET", path: "/logout", expect: PUBLIC(302) },
    { method: "POST", path: "/logout", form: {}, expect: PUBLIC(302), freshSession: true },
  ],
  // All contacts' evidence: superusers (decision 023); one contact's: anyone who can open the contact (everyone).
  "_session+/compliance.evidence[.]csv.ts": [
    { method: "GET", path: "/compliance/evidence.csv", expect: SUPERUSER_SCREEN },
    { method: "GET", path: async (c) => `/compliance/evidence.csv?contact=${await freshContact(c)}`, expect: SCREEN },
    {
      method: "GET",
      path: "/compliance/evidence.csv?contact=999999999",
      expect: { anon: 302, user: 404, superuser: 404 },
    },
    { method: "GET", path: "/compliance/evidence.csv?contact=0x6", expect: { anon: 302, user: 404, superuser: 404 } },
    { method: "POST", path: "/compliance/evidence.csv", form: {}, expect: SCREEN_NO_ACTION },
  ],
  // A month with nothing archived is a 404 for a superuser (downloads themselves: archive-old-messages.test.ts).
  "_session+/messages.archives.$month.ts": [
    { method: "GET", path: "/messages/archives/1999-01", expect: { anon: 302, user: 403, superuser: 404 } },
    { method: "GET", path: "/messages/archives/not-a-month?file=2", expect: { anon: 302, user: 403, superuser: 404 } },
    { method: "POST", path: "/messages/archives/1999-01", form: {}, expect: SCREEN_NO_ACTION },
  ],
  "_session+/contacts.download.ts": [
    { method: "GET", path: "/contacts/download?format=csv", expect: SCREEN },
    { method: "POST", path: "/contacts/download", form: {}, expect: SCREEN_NO_ACTION },
  ],
  "_session+/contacts.template[.]csv.ts": [
    { method: "GET", path: "/contacts/template.csv", expect: SCREEN },
    { method: "POST", path: "/contacts/template.csv", form: {}, expect: SCREEN_NO_ACTION },
  ],
  // No login by design: the signed token is the authority.
  "_public+/unsubscribe.$token.tsx": [
    { method: "GET", path: async () => `/unsubscribe/${unsubscribe}`, expect: PUBLIC(200) },
    { method: "POST", path: async () => `/unsubscribe/${unsubscribe}`, form: {}, expect: PUBLIC(200) },
    { method: "GET", path: "/unsubscribe/forged.token", expect: PUBLIC(404) },
  ],
  "_public+/unsubscribe.$token.one-click.ts": [
    {
      method: "POST",
      path: async () => `/unsubscribe/${unsubscribe}/one-click`,
      form: { "List-Unsubscribe": "One-Click" },
      expect: PUBLIC(200),
    },
    { method: "POST", path: "/unsubscribe/forged.token/one-click", form: {}, expect: PUBLIC(404) },
    { method: "GET", path: async () => `/unsubscribe/${unsubscribe}/one-click`, expect: PUBLIC(405) },
  ],
  // Signature-checked, never session-checked: an unsigned call is 403 whoever sends it.
  "webhooks+/twilio.sms.ts": [
    {
      method: "POST",
      path: "/webhooks/twilio/sms",
      form: { MessageSid: "SMmatrix", From: "+15005550006", Body: "hi" },
      expect: PUBLIC(403),
    },
    { method: "GET", path: "/webhooks/twilio/sms", expect: PUBLIC(405) },
  ],
  "webhooks+/twilio.status.ts": [
    {
      method: "POST",
      path: "/webhooks/twilio/status",
      form: { MessageSid: "SMmatrix", MessageStatus: "delivered" },
      expect: PUBLIC(403),
    },
    { method: "GET", path: "/webhooks/twilio/status", expect: PUBLIC(405) },
  ],
  "api+/$.ts": [
    { method: "GET", path: "/api/no-such-endpoint", expect: { anon: 401, user: 404, superuser: 404 } },
    { method: "POST", path: "/api/no-such-endpoint", json: {}, expect: { anon: 401, user: 404, superuser: 404 } },
  ],
  "_public+/api.auth.login.ts": [
    { method: "POST", path: "/api/auth/login", json: {}, expect: PUBLIC(400) },
    { method: "GET", path: "/api/auth/login", expect: PUBLIC(405) },
  ],
  "api+/_account+/auth.logout.ts": [
    {
      method: "POST",
      path: "/api/auth/logout",
      json: {},
      expect: { anon: 401, user: 204, superuser: 204 },
      freshSession: true,
    },
    { method: "GET", path: "/api/auth/logout", expect: API_405 },
  ],
  "api+/_account+/auth.me.ts": [
    { method: "GET", path: "/api/auth/me", expect: API },
    { method: "POST", path: "/api/auth/me", json: {}, expect: PUBLIC(405) },
  ],
  // The public API v1 (issue 26 item 5): the same guard as /api; the contract itself is public.
  "api+/_contacts+/v1.contacts.ts": [
    { method: "GET", path: "/api/v1/contacts", expect: API },
    { method: "POST", path: "/api/v1/contacts", json: {}, expect: API_INVALID },
    { method: "DELETE", path: "/api/v1/contacts", expect: API_405 },
  ],
  "api+/_contacts+/v1.contacts.$id.ts": [
    { method: "GET", path: async (c) => `/api/v1/contacts/${await freshContact(c)}`, expect: API },
    { method: "PATCH", path: async (c) => `/api/v1/contacts/${await freshContact(c)}`, json: [], expect: API_INVALID },
    { method: "DELETE", path: async (c) => `/api/v1/contacts/${await freshContact(c)}`, expect: API_405 },
  ],
  "api+/_contacts+/v1.contacts.$id.messages.ts": [
    {
      method: "POST",
      path: async (c) => `/api/v1/contacts/${await freshContact(c)}/messages`,
      json: {},
      expect: API_INVALID,
    },
    { method: "GET", path: async (c) => `/api/v1/contacts/${await freshContact(c)}/messages`, expect: API_405 },
  ],
  "api+/_campaigns+/v1.campaigns.ts": [
    { method: "GET", path: "/api/v1/campaigns", expect: API },
    { method: "POST", path: "/api/v1/campaigns", json: {}, expect: API_405 },
  ],
  "api+/_campaigns+/v1.campaigns.$id.ts": [
    { method: "GET", path: async (c) => `/api/v1/campaigns/${await freshCampaign(c)}`, expect: API },
    { method: "PUT", path: async (c) => `/api/v1/campaigns/${await freshCampaign(c)}`, json: {}, expect: API_405 },
  ],
  "api+/_campaigns+/v1.campaigns.$id.enrolments.ts": [
    {
      method: "POST",
      path: async (c) => `/api/v1/campaigns/${await freshCampaign(c)}/enrolments`,
      json: {},
      expect: API_INVALID,
    },
    { method: "GET", path: async (c) => `/api/v1/campaigns/${await freshCampaign(c)}/enrolments`, expect: API_405 },
  ],
  "_public+/api.v1.openapi[.]json.ts": [
    { method: "GET", path: "/api/v1/openapi.json", expect: PUBLIC(200) },
    { method: "POST", path: "/api/v1/openapi.json", json: {}, expect: PUBLIC(405) },
  ],
  "_public+/api.v1.docs.tsx": [
    { method: "GET", path: "/api/v1/docs", expect: PUBLIC(200) },
    { method: "POST", path: "/api/v1/docs", form: {}, expect: PUBLIC(405) },
  ],
  "api+/_contacts+/contacts.ts": [
    { method: "GET", path: "/api/contacts", expect: API },
    { method: "POST", path: "/api/contacts", json: {}, expect: API_INVALID },
    { method: "DELETE", path: "/api/contacts", expect: API_405 },
  ],
  "api+/_contacts+/contacts.$id.ts": [
    { method: "GET", path: async (c) => `/api/contacts/${await freshContact(c)}`, expect: API },
    {
      method: "PUT",
      path: async (c) => `/api/contacts/${await freshContact(c)}`,
      json: { email: "not-an-email" },
      expect: API_INVALID,
    },
    {
      method: "DELETE",
      path: async (c) => `/api/contacts/${await freshContact(c)}`,
      expect: { anon: 401, user: 204, superuser: 204 },
    },
    { method: "PATCH", path: async (c) => `/api/contacts/${await freshContact(c)}`, json: {}, expect: API_405 },
  ],
  "api+/_contacts+/contacts.bulk.ts": [
    { method: "POST", path: "/api/contacts/bulk", json: [], expect: API_INVALID },
    { method: "GET", path: "/api/contacts/bulk", expect: API_405 },
  ],
  "api+/_campaigns+/campaigns.ts": [
    { method: "GET", path: "/api/campaigns", expect: API },
    { method: "POST", path: "/api/campaigns", json: {}, expect: API_INVALID },
    { method: "DELETE", path: "/api/campaigns", expect: API_405 },
  ],
  "api+/_campaigns+/campaigns.$id.ts": [
    { method: "GET", path: async (c) => `/api/campaigns/${await freshCampaign(c)}`, expect: API },
    {
      method: "PUT",
      path: async (c) => `/api/campaigns/${await freshCampaign(c)}`,
      json: { name: "" },
      expect: API_INVALID,
    },
    {
      method: "DELETE",
      path: async (c) => `/api/campaigns/${await freshCampaign(c)}`,
      expect: { anon: 401, user: 204, superuser: 204 },
    },
    { method: "PATCH", path: async (c) => `/api/campaigns/${await freshCampaign(c)}`, json: {}, expect: API_405 },
  ],
  "api+/_campaigns+/campaigns.$id.$command.ts": [
    // A draft without steps or contacts cannot start: 409 with a message.
    {
      method: "POST",
      path: async (c) => `/api/campaigns/${await freshCampaign(c)}/start`,
      json: {},
      expect: { anon: 401, user: 409, superuser: 409 },
    },
    { method: "GET", path: async (c) => `/api/campaigns/${await freshCampaign(c)}/start`, expect: API_405 },
    // Pausing a draft is an invalid transition.
    {
      method: "POST",
      path: async (c) => `/api/campaigns/${await freshCampaign(c)}/pause`,
      json: {},
      expect: { anon: 401, user: 409, superuser: 409 },
    },
    {
      method: "POST",
      path: async (c) => `/api/campaigns/${await freshCampaign(c)}/contacts`,
      json: {},
      expect: API_INVALID,
    },
    { method: "GET", path: async (c) => `/api/campaigns/${await freshCampaign(c)}/contacts`, expect: API_405 },
    {
      method: "POST",
      path: async (c) => `/api/campaigns/${await freshCampaign(c)}/archive`,
      json: {},
      expect: { anon: 401, user: 404, superuser: 404 },
    },
    {
      method: "GET",
      path: async (c) => `/api/campaigns/${await freshCampaign(c)}/archive`,
      expect: { anon: 401, user: 404, superuser: 404 },
    },
  ],
  "api+/_campaigns+/campaign-steps.ts": [
    { method: "POST", path: "/api/campaign-steps", json: {}, expect: API_INVALID },
    { method: "GET", path: "/api/campaign-steps", expect: API_405 },
  ],
  "api+/_campaigns+/campaign-steps.$id.ts": [
    // GET takes a campaign id (SPEC §7), PUT/DELETE a step id.
    { method: "GET", path: async (c) => `/api/campaign-steps/${await freshCampaign(c)}`, expect: API },
    {
      method: "PUT",
      path: async (c) => `/api/campaign-steps/${await freshStep(c)}`,
      json: { name: "" },
      expect: API_INVALID,
    },
    {
      method: "DELETE",
      path: async (c) => `/api/campaign-steps/${await freshStep(c)}`,
      expect: { anon: 401, user: 204, superuser: 204 },
    },
    { method: "POST", path: async (c) => `/api/campaign-steps/${await freshStep(c)}`, json: {}, expect: API_405 },
  ],
  "api+/_account+/users.ts": [
    { method: "GET", path: "/api/users", expect: SUPER_API },
    { method: "POST", path: "/api/users", json: {}, expect: SUPER_API_INVALID },
    { method: "DELETE", path: "/api/users", expect: SUPER_API_405 },
  ],
  "api+/_account+/users.$id.ts": [
    { method: "GET", path: async () => `/api/users/${await freshUser()}`, expect: SUPER_API },
    { method: "GET", path: "/api/users/999999999", expect: { anon: 401, user: 403, superuser: 404 } },
    { method: "PUT", path: async () => `/api/users/${await freshUser()}`, json: {}, expect: SUPER_API_INVALID },
    { method: "POST", path: async () => `/api/users/${await freshUser()}`, json: {}, expect: SUPER_API_405 },
  ],
  "api+/_analytics+/analytics.users.ts": [
    { method: "GET", path: "/api/analytics/users", expect: SUPER_API },
    { method: "POST", path: "/api/analytics/users", json: {}, expect: SUPER_API_405 },
  ],
  "api+/_analytics+/analytics.activity.ts": [
    { method: "GET", path: "/api/analytics/activity", expect: SUPER_API },
    { method: "GET", path: "/api/analytics/activity?limit=0", expect: SUPER_API_INVALID },
    { method: "POST", path: "/api/analytics/activity", json: {}, expect: SUPER_API_405 },
  ],
  "api+/_messages+/templates.ts": [
    { method: "GET", path: "/api/templates", expect: API },
    { method: "POST", path: "/api/templates", json: {}, expect: API_INVALID },
    { method: "DELETE", path: "/api/templates", expect: API_405 },
  ],
  "api+/_messages+/templates.$id.ts": [
    { method: "GET", path: async (c) => `/api/templates/${await freshTemplate(c)}`, expect: API },
    {
      method: "PUT",
      path: async (c) => `/api/templates/${await freshTemplate(c)}`,
      json: { name: "" },
      expect: API_INVALID,
    },
    {
      method: "DELETE",
      path: async (c) => `/api/templates/${await freshTemplate(c)}`,
      expect: { anon: 401, user: 204, superuser: 204 },
    },
    { method: "PATCH", path: async (c) => `/api/templates/${await freshTemplate(c)}`, json: {}, expect: API_405 },
  ],
  "_app+/_responders+/alerts.tsx": [
    { method: "GET", path: "/alerts", expect: SCREEN },
    { method: "POST", path: "/alerts", form: { intent: "acknowledge" }, expect: SCREEN_FORM_INVALID },
  ],
  "api+/_responders+/auto-responders.ts": [
    { method: "GET", path: "/api/auto-responders", expect: API },
    { method: "POST", path: "/api/auto-responders", json: { name: "x" }, expect: API_INVALID },
    { method: "PUT", path: "/api/auto-responders", json: {}, expect: API_405 },
  ],
  "api+/_responders+/auto-responders.$id.ts": [
    { method: "GET", path: async () => `/api/auto-responders/${await freshResponder()}`, expect: API },
    {
      method: "PUT",
      path: async () => `/api/auto-responders/${await freshResponder()}`,
      json: { isActive: false },
      expect: API,
    },
    {
      method: "PUT",
      path: async () => `/api/auto-responders/${await freshResponder()}`,
      json: { keywords: [] },
      expect: API_INVALID,
    },
    {
      method: "DELETE",
      path: async () => `/api/auto-responders/${await freshResponder()}`,
      expect: { anon: 401, user: 204, superuser: 204 },
    },
    { method: "POST", path: async () => `/api/auto-responders/${await freshResponder()}`, json: {}, expect: API_405 },
  ],
  "api+/_responders+/alert-profiles.ts": [
    { method: "GET", path: "/api/alert-profiles", expect: API },
    { method: "POST", path: "/api/alert-profiles", json: { name: "x" }, expect: API_INVALID },
  ],
  "api+/_responders+/alert-profiles.$id.ts": [
    { method: "GET", path: async () => `/api/alert-profiles/${await freshProfile()}`, expect: API },
    {
      method: "PUT",
      path: async () => `/api/alert-profiles/${await freshProfile()}`,
      json: { isActive: false },
      expect: API,
    },
    {
      method: "DELETE",
      path: async () => `/api/alert-profiles/${await freshProfile()}`,
      expect: { anon: 401, user: 204, superuser: 204 },
    },
    { method: "POST", path: async () => `/api/alert-profiles/${await freshProfile()}`, json: {}, expect: API_405 },
  ],
  "api+/_responders+/keyword-banks.ts": [
    { method: "GET", path: "/api/keyword-banks", expect: API },
    { method: "POST", path: "/api/keyword-banks", json: { category: "Scheduling" }, expect: API_INVALID },
  ],
  "api+/_responders+/keyword-banks.$id.ts": [
    { method: "GET", path: async () => `/api/keyword-banks/${await freshBank()}`, expect: API },
    {
      method: "PUT",
      path: async () => `/api/keyword-banks/${await freshBank()}`,
      json: { isActive: false },
      expect: API,
    },
    {
      method: "DELETE",
      path: async () => `/api/keyword-banks/${await freshBank()}`,
      expect: { anon: 401, user: 204, superuser: 204 },
    },
    { method: "POST", path: async () => `/api/keyword-banks/${await freshBank()}`, json: {}, expect: API_405 },
  ],
  "api+/_responders+/test-smart-alert.ts": [
    { method: "POST", path: "/api/test-smart-alert", json: { message: " " }, expect: API_INVALID },
    { method: "GET", path: "/api/test-smart-alert", expect: API_405 },
  ],
  "api+/_analytics+/ai-analytics.ts": [
    { method: "GET", path: "/api/ai-analytics", expect: API },
    { method: "POST", path: "/api/ai-analytics", json: {}, expect: API_405 },
  ],
  "api+/_analytics+/stats.ts": [
    { method: "GET", path: "/api/stats", expect: API },
    { method: "POST", path: "/api/stats", json: {}, expect: API_405 },
  ],
  "api+/_messages+/messages.$send.ts": [
    { method: "POST", path: "/api/messages/send", json: {}, expect: API_INVALID },
    { method: "POST", path: "/api/messages/send-broadcast", json: {}, expect: API_INVALID },
    { method: "POST", path: "/api/messages/send-individual", json: {}, expect: API_INVALID },
    { method: "POST", path: "/api/messages/no-such-send", json: {}, expect: { anon: 401, user: 404, superuser: 404 } },
    { method: "GET", path: "/api/messages/send", expect: API_405 },
    { method: "GET", path: "/api/messages/send-broadcast", expect: API_405 },
  ],
  "api+/_testing+/test.$kind.ts": [
    { method: "POST", path: "/api/test/manual-email", json: {}, expect: API_INVALID },
    { method: "POST", path: "/api/test/manual-sms", json: {}, expect: API_INVALID },
    { method: "POST", path: "/api/test/no-such-test", json: {}, expect: { anon: 401, user: 404, superuser: 404 } },
    { method: "GET", path: "/api/test/manual-sms", expect: API_405 },
  ],
  "api+/_contacts+/v1.leads.ts": [
    // A session may post leads too (the key's scope is for keys); `{}` is one lead with no fields: 422.
    { method: "POST", path: "/api/v1/leads", json: {}, expect: { anon: 401, user: 422, superuser: 422 } },
    { method: "GET", path: "/api/v1/leads", expect: API_405 },
  ],
  "_app+/_account+/account_.api-keys.tsx": [
    { method: "GET", path: "/account/api-keys", expect: SCREEN },
    { method: "POST", path: "/account/api-keys", form: {}, expect: SCREEN_FORM_INVALID },
    {
      method: "POST",
      path: "/account/api-keys",
      form: { intent: "revoke", id: "999999999" },
      expect: { anon: 302, user: 404, superuser: 404 },
    },
  ],
  "api+/_messages+/messages.ts": [
    { method: "GET", path: "/api/messages", expect: API },
    { method: "POST", path: "/api/messages", json: {}, expect: PUBLIC(405) },
  ],
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
      const others = API_KEY_SCOPES.filter((s) => s !== needed) as ApiKeyScope[];
      const wrong = await send((await createTestApiKey(userId, others)).secret);
      expect(wrong.status, `${c.method} ${wrong.path} without its scope`).toBe(403);
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
