import { z } from "zod";
import { addContactsSchema } from "~/campaigns/campaign-schema";
import { MAX_LEADS_PER_POST } from "~/contacts/lead-fields";
import { MAX_CAMPAIGN_PAGE } from "~/campaigns/list-campaigns.server";
import { contactSchema } from "~/contacts/contact-schema";
import { MAX_PAGE_SIZE } from "~/contacts/list-contacts.server";
import { individualSchema } from "~/messaging/send-individual.server";
import { defineOperation, type Operation } from "./operation";
import { MAX_CONTACT_MESSAGES_PAGE } from "~/conversations/list-contact-messages.server";
import { MAX_ENROLLMENT_PAGE } from "~/campaigns/list-campaign-enrollments.server";
import {
  campaignOut,
  contactOut,
  enrolmentOut,
  enrolmentParams,
  idParams,
  messageOut,
  page,
  pageQuery,
} from "./schemas";

/** A read of one page of what belongs to a record (`/…/{id}/…`): its scope, the keyset query, the page, the 404. */
const pageUnder = <T extends z.ZodTypeAny>(parent: string, max: number, item: T, what: string) => ({
  scope: "read" as const,
  params: idParams,
  query: pageQuery(max),
  success: { status: 200 as const, description: `One page of ${what}`, schema: page(item) },
  errors: { 404: `No such ${parent}` },
});

/**
 * Every /api/v1 operation (decision 038). Add one here and a route module that serves it with `v1Route`; the
 * OpenAPI document, the docs page and the tests pick it up. Breaking changes go to /api/v2, never here.
 */
export const listContactsOp = defineOperation({
  operationId: "listContacts",
  method: "get",
  path: "/api/v1/contacts",
  route: "api+/_contacts+/v1.contacts.ts",
  tag: "Contacts",
  summary: "List contacts, newest first",
  description: "Keyset-paged: pass the page's `nextCursor` as `after` for the next page.",
  scope: "read",
  query: pageQuery(MAX_PAGE_SIZE).extend({
    q: z.string().trim().max(200, "q must be at most 200 characters").optional().describe("Name, phone or email"),
  }),
  success: { status: 200, description: "One page of contacts", schema: page(contactOut) },
  example: { query: { limit: "20", q: "ada" } },
});

export const createContactOp = defineOperation({
  operationId: "createContact",
  method: "post",
  path: "/api/v1/contacts",
  route: "api+/_contacts+/v1.contacts.ts",
  tag: "Contacts",
  summary: "Create a contact",
  description: "The phone is normalised to E.164; a US number without +1 is accepted.",
  scope: "contacts:write",
  body: contactSchema,
  success: { status: 201, description: "The contact as saved", schema: contactOut },
  errors: { 409: "A contact with this phone already exists" },
  example: { body: { firstName: "Ada", lastName: "Lovelace", phone: "+15125550142", email: "ada@example.com" } },
});

export const getContactOp = defineOperation({
  operationId: "getContact",
  method: "get",
  path: "/api/v1/contacts/{id}",
  route: "api+/_contacts+/v1.contacts.$id.ts",
  tag: "Contacts",
  summary: "Get a contact",
  scope: "read",
  params: idParams,
  success: { status: 200, description: "The contact", schema: contactOut },
  errors: { 404: "No such contact" },
});

export const updateContactOp = defineOperation({
  operationId: "updateContact",
  method: "patch",
  path: "/api/v1/contacts/{id}",
  route: "api+/_contacts+/v1.contacts.$id.ts",
  tag: "Contacts",
  summary: "Update a contact",
  description: "Only the fields sent change.",
  scope: "contacts:write",
  params: idParams,
  body: contactSchema.partial(),
  success: { status: 200, description: "The contact as saved", schema: contactOut },
  errors: { 404: "No such contact", 409: "Another contact has this phone" },
  example: { body: { company: "Analytical Engines Ltd" } },
});

export const sendContactSmsOp = defineOperation({
  operationId: "sendContactSms",
  method: "post",
  path: "/api/v1/contacts/{id}/messages",
  route: "api+/_contacts+/v1.contacts.$id.messages.ts",
  tag: "Messages",
  summary: "Send an SMS to a contact",
  description:
    "Queued through the same checks as the app's individual send (opt-out, quiet hours, caps, variables). " +
    "Send an `Idempotency-Key` header to make a retry safe.",
  scope: "send",
  params: idParams,
  body: individualSchema.pick({ message: true }),
  success: {
    status: 202,
    description: "Queued",
    schema: z.object({
      id: z.number().int().describe("The message id"),
      status: z.string().describe("queued, then sent / delivered / failed"),
      phone: z.string().nullable(),
      email: z.string().nullable(),
      encoding: z.enum(["GSM-7", "UCS-2"]),
      segments: z.number().int(),
    }),
  },
  errors: {
    404: "No such contact",
    429: "A sending cap is reached (Retry-After)",
    503: "Sending is off until PUBLIC_BASE_URL is this app's public address",
  },
  example: { body: { message: "Hi {{firstName}}, your panels are booked for Tuesday." } },
});

export const listContactMessagesOp = defineOperation({
  operationId: "listContactMessages",
  method: "get",
  path: "/api/v1/contacts/{id}/messages",
  route: "api+/_contacts+/v1.contacts.$id.messages.ts",
  tag: "Messages",
  summary: "List a contact's messages, newest first",
  description: "Sent and received, SMS and email. Keyset-paged: pass the page's `nextCursor` as `after`.",
  ...pageUnder("contact", MAX_CONTACT_MESSAGES_PAGE, messageOut, "the contact's messages"),
  example: { query: { limit: "20" } },
});

export const listCampaignsOp = defineOperation({
  operationId: "listCampaigns",
  method: "get",
  path: "/api/v1/campaigns",
  route: "api+/_campaigns+/v1.campaigns.ts",
  tag: "Campaigns",
  summary: "List campaigns, newest first",
  scope: "read",
  query: pageQuery(MAX_CAMPAIGN_PAGE),
  success: { status: 200, description: "One page of campaigns", schema: page(campaignOut) },
  example: { query: { limit: "10" } },
});

export const getCampaignOp = defineOperation({
  operationId: "getCampaign",
  method: "get",
  path: "/api/v1/campaigns/{id}",
  route: "api+/_campaigns+/v1.campaigns.$id.ts",
  tag: "Campaigns",
  summary: "Get a campaign",
  scope: "read",
  params: idParams,
  success: { status: 200, description: "The campaign", schema: campaignOut },
  errors: { 404: "No such campaign" },
});

export const enrolContactsOp = defineOperation({
  operationId: "enrolContacts",
  method: "post",
  path: "/api/v1/campaigns/{id}/enrolments",
  route: "api+/_campaigns+/v1.campaigns.$id.enrolments.ts",
  tag: "Enrolments",
  summary: "Enrol contacts into a campaign",
  description: "They start at step 1. Contacts already enrolled are skipped.",
  scope: "send",
  params: idParams,
  body: addContactsSchema,
  success: {
    status: 200,
    description: "How many were added, and the campaign",
    schema: z.object({ added: z.number().int(), campaign: campaignOut }),
  },
  errors: { 404: "No such campaign", 409: "The campaign cannot take contacts (completed)" },
  example: { body: { contactIds: [101, 102] } },
});

export const listEnrolmentsOp = defineOperation({
  operationId: "listEnrolments",
  method: "get",
  path: "/api/v1/campaigns/{id}/enrolments",
  route: "api+/_campaigns+/v1.campaigns.$id.enrolments.ts",
  tag: "Enrolments",
  summary: "List a campaign's enrolments",
  description:
    "One per enrolled contact, by contact id, newest contacts first. Keyset-paged: pass the page's `nextCursor` " +
    "(a contact id) as `after`.",
  ...pageUnder("campaign", MAX_ENROLLMENT_PAGE, enrolmentOut, "enrolments"),
  example: { query: { limit: "50" } },
});

export const stopEnrolmentOp = defineOperation({
  operationId: "stopEnrolment",
  method: "post",
  path: "/api/v1/campaigns/{id}/enrolments/{contactId}/stop",
  route: "api+/_campaigns+/v1.campaigns.$id.enrolments.$contactId.stop.ts",
  tag: "Enrolments",
  summary: "Stop a contact's enrolment",
  description:
    "The contact gets no further steps of this campaign; steps not yet handed to the carrier are skipped. " +
    "Stopping a stopped enrolment again answers it unchanged.",
  scope: "send",
  params: enrolmentParams,
  success: { status: 200, description: "The enrolment, stopped", schema: enrolmentOut },
  errors: { 404: "No such campaign, or the contact is not enrolled", 409: "The enrolment is completed" },
});

/**
 * One lead as a vendor posts it: documentation only. The route reads the body itself (`rawBody`): JSON or one
 * form-encoded lead, the header alias table of the CSV import (decision 035), a size limit and a per-lead 422.
 */
const leadIn = z
  .object({
    first_name: z.string().optional().describe('Also firstName, "First Name"; or one `name` to split'),
    last_name: z.string().optional(),
    phone: z.string().describe('Required. Also mobile, cell, "Phone Number"; a US number without +1 is accepted'),
    email: z.string().optional(),
    address: z.string().optional(),
    city: z.string().optional(),
    state: z.string().optional(),
    zip: z.string().optional(),
    source: z.string().optional().describe("Also lead_source, vendor; else ?source=, else the API key's name"),
    consent_text: z.string().optional().describe("The TCPA consent text the homeowner saw (also tcpa_consent_text)"),
    seller_name: z.string().optional().describe("The seller the consent named"),
    page_url: z.string().optional().describe("The form's page, http(s)"),
    ip_address: z.string().optional().describe("The homeowner's IP when they consented"),
    consented_at: z.string().optional().describe("ISO 8601"),
    consent_purpose: z
      .enum(["marketing", "informational"])
      .optional()
      .describe(
        "What the consent covered: marketing (the default) or informational (appointment texts only: no campaign, broadcast or Quick Send texts the lead)",
      ),
  })
  .passthrough();
const leadReport = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  invalid: z.number().int(),
  leads: z.array(
    z.object({
      index: z.number().int(),
      status: z.enum(["created", "updated", "skipped", "invalid"]),
      contactId: z.number().int().optional(),
      message: z.string().optional(),
    }),
  ),
});

export const ingestLeadsOp = defineOperation({
  operationId: "ingestLeads",
  method: "post",
  path: "/api/v1/leads",
  route: "api+/_contacts+/v1.leads.ts",
  tag: "Leads",
  summary: "Post leads (a lead vendor's webhook)",
  description:
    `One lead, an array of up to ${MAX_LEADS_PER_POST}, or \`{ "leads": [...] }\` as JSON; or one lead ` +
    "form-encoded. 201 when every lead was created, 200 when some already existed (by phone), with a report per " +
    "lead and its contact id; 422 when a lead is invalid (nothing is stored). Each new lead starts the lead " +
    "trigger rules that match its source. Send an `Idempotency-Key` header to make a retry safe.",
  scope: "leads",
  query: z.object({
    onDuplicate: z
      .enum(["update", "skip"], { message: "onDuplicate must be update or skip" })
      .default("skip")
      .describe("An existing contact (same phone): keep it (skip) or update its fields"),
    source: z
      .string()
      .trim()
      .min(1)
      .max(100, "source must be at most 100 characters")
      .optional()
      .describe("The source of leads that name none"),
  }),
  body: z.union([
    leadIn,
    z.array(leadIn).min(1).max(MAX_LEADS_PER_POST),
    z.object({ leads: z.array(leadIn).min(1).max(MAX_LEADS_PER_POST) }),
  ]),
  rawBody: true,
  success: {
    status: 201,
    description: "Every lead created (200: some existed), a report per lead",
    schema: leadReport,
  },
  errors: {
    409: "The Idempotency-Key was used with another body",
    413: `The body is too large, or more than ${MAX_LEADS_PER_POST} leads`,
    415: "Neither JSON nor form-encoded",
    422: "A lead is invalid (the report names it); nothing was stored",
  },
  example: {
    body: {
      first_name: "Maya",
      last_name: "Homeowner",
      phone: "(512) 555-0143",
      source: "EnergySage",
      consent_text: "I agree that Acme Solar may call and text me at this number.",
      seller_name: "Acme Solar",
      page_url: "https://www.energysage.example/quotes/acme",
      ip_address: "203.0.113.24",
      consented_at: "2026-11-26T20:00:00Z",
    },
  },
});

/** In the order the document lists them. */
export const OPERATIONS: readonly Operation[] = [
  listContactsOp,
  createContactOp,
  getContactOp,
  updateContactOp,
  listContactMessagesOp,
  sendContactSmsOp,
  listCampaignsOp,
  getCampaignOp,
  listEnrolmentsOp,
  enrolContactsOp,
  stopEnrolmentOp,
  ingestLeadsOp,
];
