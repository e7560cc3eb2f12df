// The contacts import's one alias table (decision 024): which contact field a file's column holds, for the Upload
// CSV dialog, Quick Upload & Send and any other importer. Browser-safe (no parser here): the Match columns dialog
// names the same targets.

import { CUSTOM_FIELD_VARIABLES, type CustomFieldName } from "./custom-fields";

export type ContactField =
  | "firstName"
  | "lastName"
  | "phone"
  | "email"
  | "company"
  | "address"
  | "city"
  | "state"
  | "zipCode";
/** What a column can hold: a contact field, a full name to split into first and last, or a custom-field variable. */
export type ColumnTarget = ContactField | "fullName" | "owner" | HomeUsageField | CustomFieldName;
/** The home's electricity (decision 074): the savings estimate's inputs, as lead files and CRM exports carry them. */
export type HomeUsageField = "monthlyBill" | "monthlyKwh" | "utilityName";

/**
 * Where a phone or email column stands when a row has several filled in: the lowest rank wins, then the leftmost
 * column. Texts go to mobiles, so a mobile column beats a plain "Phone", which beats a home or work line.
 */
export const RANK = { mobile: 0, plain: 1, landline: 2 } as const;

// Matching ignores case and every character that is not a letter or digit ("Mobile Phone Number", "mobile_phone_number"
// and "MOBILE-PHONE-NUMBER" are one alias). Headers come from our template and from CRM and lead-vendor exports:
// HubSpot, Google Contacts, Salesforce, Zoho, Pipedrive, GoHighLevel, EnergySage/Modernize-style lead files.
const ALIASES: readonly (readonly [ColumnTarget, number, readonly string[]])[] = [
  [
    "firstName",
    RANK.plain,
    ["firstName", "first", "fname", "given name", "Person - First name", "Contact First Name", "Lead First Name"],
  ],
  [
    "lastName",
    RANK.plain,
    [
      "lastName",
      "last",
      "lname",
      "surname",
      "family name",
      "Person - Last name",
      "Contact Last Name",
      "Lead Last Name",
    ],
  ],
  [
    "fullName",
    RANK.plain,
    [
      "name",
      "full name",
      "Person - Name",
      "contact name",
      "contact full name",
      "lead name",
      "customer name",
      "display name",
    ],
  ],
  [
    "phone",
    RANK.mobile,
    [
      "mobile",
      "mobile phone",
      "Mobile Phone Number",
      "mobile number",
      "mobile no",
      "cell",
      "cell phone",
      "cell phone number",
      "cell number",
      "cellular",
      "Person - Phone - Mobile",
      "phone mobile",
      "phone (mobile)",
      "mobile_phone",
      "sms phone",
    ],
  ],
  // "Phone 1 - Value" (Google Contacts) is ranked per row by its "Phone 1 - Type"/"Label" column (see typeColumnOf).
  [
    "phone",
    RANK.plain,
    [
      "phone",
      "Phone Number",
      "telephone",
      "tel",
      "phone no",
      "Person - Phone",
      "primary phone",
      "contact phone",
      "phone 1 - value",
      "phone 2 - value",
      "phone 3 - value",
    ],
  ],
  [
    "phone",
    RANK.landline,
    [
      "home phone",
      "Home Phone Number",
      "work phone",
      "Work Phone Number",
      "business phone",
      "office phone",
      "other phone",
      "landline",
      "alt phone",
      "alternate phone",
      "secondary phone",
      "phone 2",
      "Person - Phone - Work",
      "Person - Phone - Home",
      "Person - Phone - Other",
      "phone work",
      "phone home",
    ],
  ],
  [
    "email",
    RANK.mobile,
    [
      "email",
      "e-mail",
      "Email Address",
      "email_address",
      "Person - Email",
      "primary email",
      "contact email",
      "E-mail 1 - Value",
      "email 1 - value",
    ],
  ],
  [
    "email",
    RANK.plain,
    [
      "E-mail 2 - Value",
      "email 2 - value",
      "work email",
      "personal email",
      "other email",
      "home email",
      "Person - Email - Work",
      "Person - Email - Home",
      "Person - Email - Other",
      "email 2",
      "secondary email",
    ],
  ],
  [
    "company",
    RANK.plain,
    [
      "company",
      "company name",
      "organization",
      "organisation",
      "organization name",
      "Organization 1 - Name",
      "business",
      "business name",
      "account name",
      "Person - Organization",
      "employer",
    ],
  ],
  [
    "address",
    RANK.plain,
    [
      "address",
      "street",
      "street address",
      "address1",
      "address 1",
      "address line 1",
      "mailing street",
      "mailing address",
      "Address 1 - Street",
      "Person - Postal address",
      "location",
      "property address",
    ],
  ],
  [
    "city",
    RANK.plain,
    [
      "city",
      "town",
      "city/town",
      "mailing city",
      "Address 1 - City",
      "Person - Postal address - City/town",
      "property city",
    ],
  ],
  [
    "state",
    RANK.plain,
    [
      "state",
      "province",
      "region",
      "st",
      "State/Region",
      "state/province",
      "mailing state",
      "Mailing State/Province",
      "Address 1 - Region",
      "property state",
      "Person - Postal address - State/county",
    ],
  ],
  [
    "zipCode",
    RANK.plain,
    [
      "zip",
      "zipCode",
      "zip code",
      "postal code",
      "postcode",
      "postal",
      "zip/postal code",
      "mailing zip",
      "Mailing Zip/Postal Code",
      "mailing postal code",
      "Address 1 - Postal Code",
      "property zip",
      "Person - Postal address - ZIP/Postal code",
    ],
  ],
  // The contact's owner: a user's email or full name (decision 050), as CRM exports and lead files name it.
  [
    "owner",
    RANK.plain,
    [
      "owner",
      "owner email",
      "contact owner",
      "lead owner",
      "record owner",
      "account owner",
      "Person - Owner",
      "HubSpot owner",
      "assigned to",
      "assigned user",
      "assignee",
      "sales rep",
      "sales rep email",
      "rep",
      "rep email",
    ],
  ],
  // The home's electricity (decision 074), as solar lead files name it.
  [
    "monthlyBill",
    RANK.plain,
    [
      "monthly bill",
      "monthlyBill",
      "electric bill",
      "electricity bill",
      "power bill",
      "utility bill",
      "average bill",
      "avg bill",
      "average monthly bill",
      "avg monthly bill",
      "monthly electric bill",
      "average electric bill",
      "bill amount",
    ],
  ],
  [
    "monthlyKwh",
    RANK.plain,
    [
      "monthly kwh",
      "monthlyKwh",
      "kwh",
      "kwh per month",
      "monthly usage",
      "usage kwh",
      "avg monthly kwh",
      "average kwh",
    ],
  ],
  [
    "utilityName",
    RANK.plain,
    [
      "utility",
      "utility name",
      "utility company",
      "utility provider",
      "electric company",
      "electric utility",
      "power company",
    ],
  ],
  // Custom-field columns are matched by the variable's own name ("roofSize", "Roof Size", "roof_size").
  ...CUSTOM_FIELD_VARIABLES.map((name) => [name, RANK.plain, [name]] as const),
];

export const headerKey = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, "");

const BY_KEY: Map<string, { target: ColumnTarget; rank: number }> = new Map(
  ALIASES.flatMap(([target, rank, aliases]) => aliases.map((a) => [headerKey(a), { target, rank }] as const)),
);

/** Which field a header cell maps to, and its rank among the file's phone or email columns; null when unknown. */
export function guessColumn(header: string): { target: ColumnTarget; rank: number } | null {
  return BY_KEY.get(headerKey(String(header ?? ""))) ?? null;
}

/** The automatic guess for every column of a header row (null = ignored). */
export function guessColumns(header: readonly string[]): (ColumnTarget | null)[] {
  return header.map((h) => guessColumn(h)?.target ?? null);
}

/** A phone or email column's rank: its alias's when its header aliases that field, a plain column's otherwise. */
export function columnRank(header: string, target: ColumnTarget): number {
  const guess = guessColumn(header);
  return guess?.target === target ? guess.rank : RANK.plain;
}

/**
 * The column that says what kind of number or address a Google Contacts-style "Phone 1 - Value" holds: "Phone 1 -
 * Type" (older exports) or "Phone 1 - Label" (newer ones), whose cells read "Mobile", "* Mobile", "Home", "Work"…
 */
export function typeColumnOf(header: readonly string[], index: number): number | null {
  const m = /^(phone|email)(\d+)value$/.exec(headerKey(String(header[index] ?? "")));
  if (!m) return null;
  const wanted = new Set([`${m[1]}${m[2]}type`, `${m[1]}${m[2]}label`]);
  const found = header.findIndex((h) => wanted.has(headerKey(String(h ?? ""))));
  return found >= 0 ? found : null;
}

/** The rank a row's type cell gives its phone ("Mobile" first, home/work/fax last); null = keep the column's. */
export function rankOfType(type: string): number | null {
  const t = type.toLowerCase();
  if (!t.trim()) return null;
  if (/mobile|cell/.test(t)) return RANK.mobile;
  if (/home|work|office|business|fax|pager|other/.test(t)) return RANK.landline;
  return RANK.plain;
}

export const TARGET_LABELS: Record<ColumnTarget, string> = {
  firstName: "First name",
  lastName: "Last name",
  fullName: "Full name (split)",
  owner: "Owner (a user's email or name)",
  phone: "Phone",
  email: "Email",
  company: "Company",
  address: "Address",
  city: "City",
  state: "State",
  zipCode: "ZIP code",
  monthlyBill: "Monthly electric bill ($)",
  monthlyKwh: "Monthly use (kWh)",
  utilityName: "Utility",
  roofSize: "Roof size",
  systemSize: "System size",
  estimatedSavings: "Estimated savings",
  yearOneSavings: "Year one savings",
  incentiveAmount: "Incentive amount",
  paybackPeriod: "Payback period",
  appointmentDate: "Appointment date",
  appointmentTime: "Appointment time",
  meetingLink: "Meeting link",
};

export const COLUMN_TARGETS = Object.keys(TARGET_LABELS) as ColumnTarget[];

export const isColumnTarget = (v: unknown): v is ColumnTarget =>
  typeof v === "string" && Object.hasOwn(TARGET_LABELS, v);

/** A column mapping as the Match columns form posts it and as it is remembered: one target (or null) per column. */
export type ColumnMap = (ColumnTarget | null)[];

/** The message when no column is mapped to a phone (every row would be refused). */
export const NO_PHONE_COLUMN = "No column is matched to Phone. Choose the column that holds the phone numbers.";
