// Platform variables (SPEC §3): the {{name}} tokens message content may use.
// Pure data; the Testing screen renders the reference from this list and the renderer validates against it.

export const VARIABLE_CATEGORIES = ["Contact", "Business", "Solar", "Appointment", "Campaign", "Date/Time"] as const;

export type VariableCategory = (typeof VARIABLE_CATEGORIES)[number];

export interface PlatformVariable {
  name: string;
  category: VariableCategory;
  description: string;
  example: string;
}

/** One category's variables: [name, description, example]. */
const inCategory = (category: VariableCategory, rows: [name: string, description: string, example: string][]) =>
  rows.map(([name, description, example]): PlatformVariable => ({ name, category, description, example }));

export const PLATFORM_VARIABLES: readonly PlatformVariable[] = [
  ...inCategory("Contact", [
    ["firstName", "Contact's first name", "John"],
    ["lastName", "Contact's last name", "Doe"],
    ["fullName", "First and last name together", "John Doe"],
    ["email", "Contact's email address", "john.doe@example.com"],
    ["phone", "Contact's phone number", "+15551234567"],
    ["address", "Street address", "123 Main St"],
    ["city", "City", "Sacramento"],
    ["state", "State", "CA"],
    ["zipCode", "ZIP code", "95814"],
  ]),
  ...inCategory("Business", [
    ["company", "Contact's company", "ABC Corp"],
    ["companyPhone", "Our company phone number", "+15559876543"],
    ["website", "Our website", "https://helio.example"],
    ["salesRep", "Assigned sales representative", "Sarah Miller"],
    ["salesRepEmail", "Sales representative's email", "sarah@helio.example"],
    ["salesRepPhone", "Sales representative's phone", "+15555550123"],
  ]),
  ...inCategory("Solar", [
    ["roofSize", "Usable roof area", "1,800 sq ft"],
    ["systemSize", "Proposed system size", "7.2 kW"],
    ["estimatedSavings", "Estimated lifetime savings", "$32,000"],
    ["yearOneSavings", "Estimated first-year savings", "$1,450"],
    // A state or utility rebate: the 30% federal homeowner credit ended for purchases after 2025 (issue 28).
    ["incentiveAmount", "Available incentives and tax credits", "$1,000"],
    ["paybackPeriod", "Estimated payback period", "7 years"],
  ]),
  ...inCategory("Appointment", [
    ["appointmentDate", "Appointment date", "November 21, 2026"],
    ["appointmentTime", "Appointment time", "3:00 PM"],
    ["appointmentDateTime", "Appointment date and time", "November 21, 2026 at 3:00 PM"],
    ["meetingLink", "Video meeting link", "https://meet.example.com/abc-123"],
  ]),
  ...inCategory("Campaign", [
    ["campaignName", "Name of the campaign", "Spring Solar Savings"],
    ["offerExpiration", "Date the offer expires", "December 31, 2026"],
    ["promoCode", "Promotional code", "SUN2026"],
  ]),
  // Computed at render time (render.ts).
  ...inCategory("Date/Time", [
    ["currentDate", "Today's date", "November 21, 2026"],
    ["currentTime", "Current time", "3:05 PM"],
    ["currentYear", "Current year", "2026"],
  ]),
];

export const PLATFORM_VARIABLE_NAMES: ReadonlySet<string> = new Set(PLATFORM_VARIABLES.map((v) => v.name));

export function isPlatformVariable(name: string): boolean {
  return PLATFORM_VARIABLE_NAMES.has(name);
}

/** Variables grouped by category, categories in VARIABLE_CATEGORIES order (every category present). */
export function variablesByCategory(): { category: VariableCategory; variables: PlatformVariable[] }[] {
  return VARIABLE_CATEGORIES.map((category) => ({
    category,
    variables: PLATFORM_VARIABLES.filter((v) => v.category === category),
  }));
}

/** name → example value, used for sample-data previews. */
export function exampleValues(): Record<string, string> {
  return Object.fromEntries(PLATFORM_VARIABLES.map((v) => [v.name, v.example]));
}
