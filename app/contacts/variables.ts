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

export const PLATFORM_VARIABLES: readonly PlatformVariable[] = [
  // Contact
  { name: "firstName", category: "Contact", description: "Contact's first name", example: "John" },
  { name: "lastName", category: "Contact", description: "Contact's last name", example: "Doe" },
  { name: "fullName", category: "Contact", description: "First and last name together", example: "John Doe" },
  { name: "email", category: "Contact", description: "Contact's email address", example: "john.doe@example.com" },
  { name: "phone", category: "Contact", description: "Contact's phone number", example: "+15551234567" },
  { name: "address", category: "Contact", description: "Street address", example: "123 Main St" },
  { name: "city", category: "Contact", description: "City", example: "Sacramento" },
  { name: "state", category: "Contact", description: "State", example: "CA" },
  { name: "zipCode", category: "Contact", description: "ZIP code", example: "95814" },
  // Business
  { name: "company", category: "Business", description: "Contact's company", example: "ABC Corp" },
  { name: "companyPhone", category: "Business", description: "Our company phone number", example: "+15559876543" },
  { name: "website", category: "Business", description: "Our website", example: "https://helio.example" },
  { name: "salesRep", category: "Business", description: "Assigned sales representative", example: "Sarah Miller" },
  {
    name: "salesRepEmail",
    category: "Business",
    description: "Sales representative's email",
    example: "sarah@helio.example",
  },
  { name: "salesRepPhone", category: "Business", description: "Sales representative's phone", example: "+15555550123" },
  // Solar
  { name: "roofSize", category: "Solar", description: "Usable roof area", example: "1,800 sq ft" },
  { name: "systemSize", category: "Solar", description: "Proposed system size", example: "7.2 kW" },
  { name: "estimatedSavings", category: "Solar", description: "Estimated lifetime savings", example: "$32,000" },
  { name: "yearOneSavings", category: "Solar", description: "Estimated first-year savings", example: "$1,450" },
  {
    name: "incentiveAmount",
    category: "Solar",
    description: "Available incentives and tax credits",
    // A state or utility rebate: the 30% federal homeowner credit ended for purchases after 2025 (issue 28).
    example: "$1,000",
  },
  { name: "paybackPeriod", category: "Solar", description: "Estimated payback period", example: "7 years" },
  // Appointment
  { name: "appointmentDate", category: "Appointment", description: "Appointment date", example: "November 21, 2026" },
  { name: "appointmentTime", category: "Appointment", description: "Appointment time", example: "3:00 PM" },
  {
    name: "appointmentDateTime",
    category: "Appointment",
    description: "Appointment date and time",
    example: "November 21, 2026 at 3:00 PM",
  },
  {
    name: "meetingLink",
    category: "Appointment",
    description: "Video meeting link",
    example: "https://meet.example.com/abc-123",
  },
  // Campaign
  { name: "campaignName", category: "Campaign", description: "Name of the campaign", example: "Spring Solar Savings" },
  {
    name: "offerExpiration",
    category: "Campaign",
    description: "Date the offer expires",
    example: "December 31, 2026",
  },
  { name: "promoCode", category: "Campaign", description: "Promotional code", example: "SUN2026" },
  // Date/Time (computed at render time, see render.ts)
  { name: "currentDate", category: "Date/Time", description: "Today's date", example: "November 21, 2026" },
  { name: "currentTime", category: "Date/Time", description: "Current time", example: "3:05 PM" },
  { name: "currentYear", category: "Date/Time", description: "Current year", example: "2026" },
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
