import { describe, expect, it } from "vitest";
import { exampleValues, PLATFORM_VARIABLES, VARIABLE_CATEGORIES, variablesByCategory } from "./variables.js";

describe("platform variables (SPEC §3)", () => {
  it("lists the categories in SPEC order", () => {
    expect(VARIABLE_CATEGORIES).toEqual(["Contact", "Business", "Solar", "Appointment", "Campaign", "Date/Time"]);
  });

  it("has exactly the SPEC variables per category, in order", () => {
    const grouped = Object.fromEntries(variablesByCategory().map((g) => [g.category, g.variables.map((v) => v.name)]));
    expect(grouped).toEqual({
      Contact: ["firstName", "lastName", "fullName", "email", "phone", "address", "city", "state", "zipCode"],
      Business: ["company", "companyPhone", "website", "salesRep", "salesRepEmail", "salesRepPhone"],
      Solar: ["roofSize", "systemSize", "estimatedSavings", "yearOneSavings", "incentiveAmount", "paybackPeriod"],
      Appointment: ["appointmentDate", "appointmentTime", "appointmentDateTime", "meetingLink"],
      Campaign: ["campaignName", "offerExpiration", "promoCode"],
      "Date/Time": ["currentDate", "currentTime", "currentYear"],
    });
    expect(variablesByCategory().map((g) => g.category)).toEqual([...VARIABLE_CATEGORIES]);
  });

  it("gives every variable a unique name, a description and an example", () => {
    const names = PLATFORM_VARIABLES.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(31);
    for (const v of PLATFORM_VARIABLES) {
      expect(v.description.trim(), v.name).not.toBe("");
      expect(v.example.trim(), v.name).not.toBe("");
    }
  });

  it("exampleValues maps every name to its example", () => {
    const ex = exampleValues();
    expect(Object.keys(ex)).toEqual(PLATFORM_VARIABLES.map((v) => v.name));
    expect(ex.firstName).toBe("John");
    expect(ex.fullName).toBe(`${ex.firstName} ${ex.lastName}`);
  });
});
