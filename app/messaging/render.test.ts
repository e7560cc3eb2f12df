import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  extractVariables,
  findUnknownVariables,
  QUICK_SEND_PREVIEW_DEFAULTS,
  renderQuickSend,
  renderTemplate,
} from "./render.js";
import { exampleValues, PLATFORM_VARIABLES } from "~/contacts/variables";

// 2026-11-21 15:05 in Los Angeles (PST, UTC-8).
const NOW = new Date("2026-11-21T23:05:00Z");

describe("extractVariables", () => {
  it.each([
    ["Hi {{firstName}}", ["firstName"]],
    ["Hi {{ firstName }} {{lastName}}, {{firstName}} again", ["firstName", "lastName"]],
    ["{{  company\t}} at {{address}}", ["company", "address"]],
    ["{{promoCode}}{{unknownThing}}{{promoCode}}", ["promoCode", "unknownThing"]],
    ["no tokens, {single} braces, {{ two words }}, {{}}, {{1abc}}", []],
    ["{{{firstName}}}", ["firstName"]],
    ["", []],
  ])("%j → %j", (content, expected) => {
    expect(extractVariables(content)).toEqual(expected);
  });

  it("returns distinct names in order of first appearance (property)", () => {
    const names = PLATFORM_VARIABLES.map((v) => v.name);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...names, "custom", "other_1")),
        fc.array(fc.constantFrom(" ", "", "  ")),
        (picked, pads) => {
          const content = picked.map((n, i) => `x {{${pads[i] ?? ""}${n}${pads[i] ?? ""}}} y`).join("");
          expect(extractVariables(content)).toEqual([...new Set(picked)]);
        },
      ),
    );
  });
});

describe("findUnknownVariables", () => {
  it("reports tokens that are not platform variables", () => {
    expect(findUnknownVariables("{{firstName}} {{FirstName}} {{discount}} {{discount}}")).toEqual([
      "FirstName",
      "discount",
    ]);
    expect(findUnknownVariables("{{firstName}} {{currentYear}}")).toEqual([]);
  });
});

describe("renderTemplate", () => {
  it("replaces known tokens, allowing inner spaces", () => {
    const r = renderTemplate("Hi {{ firstName }}, {{company}} saves {{estimatedSavings}}.", {
      firstName: "Ana",
      company: "Sun Co",
      estimatedSavings: "$30,000",
    });
    expect(r).toEqual({ text: "Hi Ana, Sun Co saves $30,000.", unknown: [], missing: [] });
  });

  it("derives fullName from first and last name unless given", () => {
    expect(renderTemplate("{{fullName}}", { firstName: "Ana", lastName: "Lee" }).text).toBe("Ana Lee");
    expect(renderTemplate("{{fullName}}", { firstName: " Ana ", lastName: null }).text).toBe("Ana");
    expect(renderTemplate("{{fullName}}", { lastName: "Lee" }).text).toBe("Lee");
    expect(renderTemplate("{{fullName}}", { fullName: "Dr. Ana Lee", firstName: "Ana" }).text).toBe("Dr. Ana Lee");
    expect(renderTemplate("[{{fullName}}]", {})).toEqual({ text: "[]", unknown: [], missing: ["fullName"] });
  });

  it("leaves unknown tokens as-is and reports them", () => {
    const r = renderTemplate("Use {{ discount }} by {{offerExpiration}} {{discount}}", { offerExpiration: "Friday" });
    expect(r).toEqual({ text: "Use {{ discount }} by Friday {{discount}}", unknown: ["discount"], missing: [] });
  });

  it("renders known tokens without a value as empty and reports them once", () => {
    const r = renderTemplate("Hi {{firstName}} {{lastName}}! {{lastName}} / {{city}}", {
      firstName: "Ana",
      lastName: null,
      city: "  ",
    });
    expect(r).toEqual({ text: "Hi Ana !  / ", unknown: [], missing: ["lastName", "city"] });
  });

  it("does not expand tokens found inside values", () => {
    const r = renderTemplate("{{firstName}} {{lastName}}", { firstName: "{{lastName}}", lastName: "Lee" });
    expect(r.text).toBe("{{lastName}} Lee");
  });

  it("computes currentDate/currentTime/currentYear in the default zone America/Los_Angeles", () => {
    const r = renderTemplate("{{currentDate}} {{ currentTime }} {{currentYear}}", {}, { now: NOW });
    expect(r).toEqual({ text: "November 21, 2026 3:05 PM 2026", unknown: [], missing: [] });
  });

  it("uses the given time zone, including across a year boundary", () => {
    const instant = new Date("2027-01-01T05:00:00Z");
    expect(renderTemplate("{{currentDate}} {{currentTime}} {{currentYear}}", {}, { now: instant }).text).toBe(
      "December 31, 2026 9:00 PM 2026",
    );
    expect(
      renderTemplate(
        "{{currentDate}} {{currentTime}} {{currentYear}}",
        {},
        { now: instant, timeZone: "America/New_York" },
      ).text,
    ).toBe("January 1, 2027 12:00 AM 2027");
  });

  it("falls back to the default zone for an invalid time zone and lets explicit values win", () => {
    expect(renderTemplate("{{currentTime}}", {}, { now: NOW, timeZone: "Not/AZone" }).text).toBe("3:05 PM");
    expect(renderTemplate("{{currentYear}}", { currentYear: "1999" }, { now: NOW }).text).toBe("1999");
  });

  it("renders every platform variable from example values with nothing unknown or missing (property)", () => {
    const names = PLATFORM_VARIABLES.map((v) => v.name);
    const ex = exampleValues();
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...names), { minLength: 1 }), fc.string(), (picked, filler) => {
        const safeFiller = filler.replace(/[{}]/g, "");
        const content = picked.map((n) => `{{${n}}}`).join(safeFiller);
        const r = renderTemplate(content, ex, { now: NOW });
        expect(r.unknown).toEqual([]);
        expect(r.missing).toEqual([]);
        expect(extractVariables(r.text)).toEqual([]);
      }),
    );
  });
});

describe("renderQuickSend (SPEC §5)", () => {
  it("replaces the four placeholders per contact", () => {
    const text = "Hi #FIRST_NAME# #LAST_NAME# of #COMPANY#, about #ADDRESS# — #FIRST_NAME#!";
    expect(renderQuickSend(text, { firstName: "Ana", lastName: "Lee", company: "Sun Co", address: "1 Elm" })).toBe(
      "Hi Ana Lee of Sun Co, about 1 Elm — Ana!",
    );
  });

  it("uses an empty string for missing fields and leaves other #WORDS# alone", () => {
    expect(
      renderQuickSend("#FIRST_NAME#|#LAST_NAME#|#COMPANY#|#ADDRESS#|#PHONE#|#first_name#", {
        firstName: "Ana",
        company: null,
      }),
    ).toBe("Ana||||#PHONE#|#first_name#");
  });

  it("previews with the SPEC defaults", () => {
    expect(QUICK_SEND_PREVIEW_DEFAULTS).toEqual({
      firstName: "John",
      lastName: "Doe",
      company: "ABC Corp",
      address: "123 Main St",
    });
    expect(renderQuickSend("#FIRST_NAME# #LAST_NAME#, #COMPANY#, #ADDRESS#", QUICK_SEND_PREVIEW_DEFAULTS)).toBe(
      "John Doe, ABC Corp, 123 Main St",
    );
  });

  it("does not re-expand placeholders inside values", () => {
    expect(renderQuickSend("#FIRST_NAME# #LAST_NAME#", { firstName: "#LAST_NAME#", lastName: "Lee" })).toBe(
      "#LAST_NAME# Lee",
    );
  });
});
