// Issue 24: leads come from CRMs, not from our template. Real export header rows (tests/fixtures/crm-*.csv) import
// with their phones found: a mobile column beats an empty or landline one, a full name is split, Google Contacts'
// "Phone N - Type" decides per row. Decision 024.
import { describe, expect, it } from "vitest";
import { fixtureFile } from "../../tests/fixtures";
import { guessColumns, headerKey } from "./column-aliases";
import { parseContactsCsv, readCsvRecords, splitFullName } from "./csv-import";
import { readContactsFile } from "./read-contacts-file.server";

const ANA = { firstName: "Ana", lastName: "Lee", phone: "+12128675301" };
const BO = { firstName: "Bo", lastName: "Diaz", phone: "+13108675302" };
const CY = { firstName: "Cy", lastName: "Park", phone: "+14158675303" };
/** Ana's row where the export has every field. */
const ANA_EVERYTHING = {
  ...ANA,
  email: "ana.lee@example.com",
  address: "1 Elm St",
  city: "Albany",
  state: "NY",
  zipCode: "12207",
  company: "Sun Co",
};

/** A fixture as the Upload CSV dialog reads it (the contacts import's rules: first, last name and phone required). */
async function importOf(name: string) {
  const contents = await readContactsFile(fixtureFile(name));
  if (contents.kind !== "csv") throw new Error("a CSV fixture");
  return parseContactsCsv(contents.text);
}

describe("CRM and lead-vendor exports", () => {
  it("HubSpot: the mobile when Phone Number is empty, the mobile over a landline, Phone Number when there is no mobile", async () => {
    const r = await importOf("crm-hubspot.csv");
    expect(r.errors).toEqual([]);
    expect(r.rows).toMatchObject([
      ANA_EVERYTHING,
      { ...BO, state: "CA", zipCode: "90012" },
      { ...CY, company: "Bright Roofs", email: null },
    ]);
  });

  it("Google Contacts: Given/Family Name, the phone whose type is Mobile in any slot, E-mail N - Value, Address 1 parts", async () => {
    const r = await importOf("crm-google-contacts.csv");
    expect(r.errors).toEqual([]);
    expect(r.rows).toMatchObject([
      // Phone 1 is Home, Phone 2 is Mobile: the mobile wins although it is further right.
      ANA_EVERYTHING,
      { ...BO, email: "bo@work.example.com", city: "Los Angeles", state: "CA", zipCode: "90012", address: null },
      { ...CY, email: "cy@example.com", company: "Bright Roofs" },
    ]);
  });

  it("Salesforce: Mobile over Phone, Phone when Mobile is empty, the Mailing address", async () => {
    const r = await importOf("crm-salesforce.csv");
    expect(r.errors).toEqual([]);
    expect(r.rows).toMatchObject([
      { ...ANA, company: "Sun Co", address: "1 Elm St", city: "Albany", state: "NY", zipCode: "12207" },
      { ...BO, email: "bo@example.com" },
      { ...CY, city: "San Francisco", email: null },
    ]);
  });

  it("Zoho: Mobile over Phone, Mailing Zip", async () => {
    const r = await importOf("crm-zoho.csv");
    expect(r.errors).toEqual([]);
    expect(r.rows).toMatchObject([{ ...ANA, zipCode: "12207", company: "Sun Co" }, BO, CY]);
  });

  it("Pipedrive: Person - Name split, Person - Phone - Mobile over Work, Work over nothing, Home last", async () => {
    const r = await importOf("crm-pipedrive.csv");
    expect(r.errors).toEqual([]);
    expect(r.rows).toMatchObject([
      { ...ANA, email: "ana.lee@example.com", company: "Sun Co", address: "1 Elm St, Albany, NY 12207" },
      { ...BO, email: "bo@work.example.com" }, // "Diaz, Bo"
      { ...CY, company: "Bright Roofs" },
    ]);
  });

  it("GoHighLevel: Phone, Business Name, Postal Code", async () => {
    const r = await importOf("crm-gohighlevel.csv");
    expect(r.errors).toEqual([]);
    expect(r.rows).toMatchObject([
      { ...ANA, company: "Sun Co", zipCode: "12207" },
      BO,
      { ...CY, company: "Bright Roofs", zipCode: "94103" },
    ]);
  });

  it("a lead vendor's file: phone_number, then alt_phone when it is empty; email_address, zip", async () => {
    const r = await importOf("crm-lead-vendor.csv");
    expect(r.errors).toEqual([]);
    expect(r.rows).toMatchObject([
      { ...ANA, email: "ana.lee@example.com", zipCode: "12207", address: "1 Elm St" },
      BO,
      { ...CY, email: "cy@example.com" },
    ]);
  });

  it("Quick Upload's rules read the same exports the same way (one alias table)", async () => {
    for (const name of ["crm-hubspot.csv", "crm-google-contacts.csv", "crm-pipedrive.csv"]) {
      const contents = await readContactsFile(fixtureFile(name));
      if (contents.kind !== "csv") throw new Error("a CSV fixture");
      const r = parseContactsCsv(contents.text, { requireLastName: false });
      expect(r.rows.map((x) => x.phone)).toEqual([ANA.phone, BO.phone, CY.phone]);
    }
  });
});

describe("the alias table", () => {
  it("is case, space and punctuation insensitive", async () => {
    expect(
      guessColumns([
        "MOBILE-PHONE-NUMBER",
        "mobile_phone_number",
        " Mobile Phone Number ",
        "E_MAIL 1 - value",
        "person.name",
      ]),
    ).toEqual(["phone", "phone", "phone", "email", "fullName"]);
    expect(headerKey("Mailing State/Province")).toBe("mailingstateprovince");
  });

  it("leaves columns it does not know unmapped", () => {
    const csv = readCsvRecords("Record ID,Lifecycle Stage,Notes,Address 1 - Formatted\n1,Lead,x,y\n");
    expect(guessColumns(csv!.header)).toEqual([null, null, null, null]);
  });

  it("splits a full name only when there are no first and last name columns", () => {
    expect(splitFullName("Mary Ann  Smith")).toEqual({ firstName: "Mary Ann", lastName: "Smith" });
    expect(splitFullName("Smith, Mary Ann")).toEqual({ firstName: "Mary Ann", lastName: "Smith" });
    expect(splitFullName("Cher")).toEqual({ firstName: "Cher", lastName: "" });
    const r = parseContactsCsv("Name,First Name,Last Name,Phone\nAna Lee,Anabel,Leeds,2128675301\n");
    expect(r.rows[0]).toMatchObject({ firstName: "Anabel", lastName: "Leeds" });
  });
});
