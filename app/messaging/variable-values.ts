// Where each platform variable's value comes from (issue 11), and the one function that assembles the values a
// message is rendered with. Pure: the callers load the rows (the consumer per batch, the send check per request).
import { COMPUTED_FIELD_VARIABLES, CUSTOM_FIELD_VARIABLES, parseCustomFields } from "~/contacts/custom-fields";
import type { RenderValues } from "./render";

export {
  CUSTOM_FIELD_VARIABLES,
  parseCustomFields,
  serializeCustomFields,
  type CustomFields,
} from "~/contacts/custom-fields";

/** Organisation settings (org_settings rows) that feed variables; `company` is the fallback for a contact without one. */
export const ORG_SETTING_KEYS = ["company", "companyPhone", "website"] as const;
export type OrgSettingKey = (typeof ORG_SETTING_KEYS)[number];
export type OrgSettings = Partial<Record<OrgSettingKey, string>>;

const LONG_DATE = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" });

/** {{offerExpiration}}: "2026-12-31" → "December 31, 2026"; anything else is shown as typed. */
export function formatOfferExpiration(v: string | null | undefined): string | null {
  if (!v) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v.trim());
  if (!m) return v;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return Number.isNaN(d.getTime()) ? v : LONG_DATE.format(d);
}

/**
 * "computed": a contact's field that a feature fills when the contact has none (the Solar variables from public
 * data, decision 074) — never missing for a contact, filled at send time.
 */
export type VariableSource = "contact" | "custom" | "computed" | "sender" | "org" | "campaign" | "clock";

/** The contact's next appointment (scheduled or confirmed, not yet begun): the Appointment variables come from it. */
export type UpcomingAppointment = { startsAt: Date; timeZone: string; meetingLink: string | null };

/** `{{appointmentDate}}` "Tuesday, March 10", `{{appointmentTime}}` "10:00 AM EDT", both, and `{{meetingLink}}`. */
export function appointmentVariables(a: UpcomingAppointment) {
  const appointmentDate = new Intl.DateTimeFormat("en-US", {
    timeZone: a.timeZone,
    weekday: "long",
    month: "long",
    day: "numeric",
  }).format(a.startsAt);
  const appointmentTime = new Intl.DateTimeFormat("en-US", {
    timeZone: a.timeZone,
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(a.startsAt);
  return {
    appointmentDate,
    appointmentTime,
    appointmentDateTime: `${appointmentDate} at ${appointmentTime}`,
    meetingLink: a.meetingLink ?? "",
  };
}

const SOURCE: Record<string, VariableSource> = {
  firstName: "contact",
  lastName: "contact",
  fullName: "contact",
  email: "contact",
  phone: "contact",
  address: "contact",
  city: "contact",
  state: "contact",
  zipCode: "contact",
  company: "contact",
  companyPhone: "org",
  website: "org",
  salesRep: "sender",
  salesRepEmail: "sender",
  salesRepPhone: "sender",
  appointmentDateTime: "custom",
  campaignName: "campaign",
  offerExpiration: "campaign",
  promoCode: "campaign",
  currentDate: "clock",
  currentTime: "clock",
  currentYear: "clock",
  ...Object.fromEntries(
    CUSTOM_FIELD_VARIABLES.map((n) => [n, COMPUTED_FIELD_VARIABLES.has(n) ? "computed" : "custom"]),
  ),
};

/** The data source of a platform variable (undefined for an unknown name). */
export function variableSource(name: string): VariableSource | undefined {
  return SOURCE[name];
}

const clean = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/** "15:00" / "3pm" stay readable: 24-hour "HH:MM" becomes "3:00 PM"; anything else is shown as typed. */
export function formatAppointmentTime(v: string | undefined): string | undefined {
  if (!v) return v;
  const m = /^(\d{1,2}):(\d{2})$/.exec(v);
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return v;
  const h = Number(m[1]);
  return `${h % 12 === 0 ? 12 : h % 12}:${m[2]} ${h < 12 ? "AM" : "PM"}`;
}

type Person = { firstName?: string | null; lastName?: string | null; email?: string | null; phone?: string | null };

export type VariableSources = {
  contact?: {
    firstName?: string | null;
    lastName?: string | null;
    email?: string | null;
    phone?: string | null;
    company?: string | null;
    address?: string | null;
    city?: string | null;
    state?: string | null;
    zipCode?: string | null;
    customFields?: string | null;
  } | null;
  /** The person sending (messages.created_by): {{salesRep}}, {{salesRepEmail}}, {{salesRepPhone}} when no owner. */
  sender?: Person | null;
  /** The contact's owner (contacts.owner_user_id, decision 044): the {{salesRep…}} variables when there is one. */
  owner?: Person | null;
  org?: OrgSettings;
  campaign?: { campaignName?: string | null; promoCode?: string | null; offerExpiration?: string | null } | null;
  /** The contact's next appointment: {{appointmentDate}} and kin from it, the custom fields only without one. */
  appointment?: UpcomingAppointment | null;
  /** What a pipeline variable provider computed for this contact: used where the contact's own field is blank. */
  provided?: Readonly<Record<string, string>> | null;
  /** Address the message goes to when there is no contact (a quick send or test to a bare number). */
  to?: { phone?: string | null; email?: string | null };
};

function bookedAppointment(a: UpcomingAppointment, typedLink: string | undefined) {
  const v = appointmentVariables(a);
  return { ...v, meetingLink: v.meetingLink || typedLink };
}

/**
 * Every variable's value from its source (the Date/Time ones are computed by renderTemplate in the contact's
 * zone). Pass the result to `renderTemplate(content, variableValues(sources), { now, timeZone })`.
 */
export function variableValues(s: VariableSources): RenderValues {
  const c = s.contact ?? {};
  const custom = parseCustomFields(c.customFields);
  // The lead's owner speaks for the company to this contact; the sender only when the lead has no owner.
  const sender = s.owner?.email ? s.owner : s.sender;
  const salesRep = sender ? [sender.firstName, sender.lastName].map(clean).filter(Boolean).join(" ") : "";
  return {
    firstName: c.firstName,
    lastName: c.lastName,
    email: c.email ?? s.to?.email,
    phone: c.phone ?? s.to?.phone,
    address: c.address,
    city: c.city,
    state: c.state,
    zipCode: c.zipCode,
    company: clean(c.company) ?? s.org?.company,
    companyPhone: s.org?.companyPhone,
    website: s.org?.website,
    salesRep: salesRep || undefined,
    salesRepEmail: sender?.email,
    salesRepPhone: sender?.phone,
    ...s.provided,
    ...custom,
    appointmentDate: formatOfferExpiration(custom.appointmentDate) ?? undefined,
    appointmentTime: formatAppointmentTime(custom.appointmentTime),
    // A booked appointment is the truth; a typed or imported date is what there is without one.
    ...(s.appointment ? bookedAppointment(s.appointment, custom.meetingLink) : {}),
    campaignName: s.campaign?.campaignName,
    promoCode: s.campaign?.promoCode,
    offerExpiration: formatOfferExpiration(s.campaign?.offerExpiration),
  };
}
