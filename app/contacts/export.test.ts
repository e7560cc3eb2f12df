import { describe, expect, it } from "vitest";
import { ADA } from "../../tests/contact-fixtures";
import { parseContactsCsv } from "./csv-import";
import {
  contactsToCsv,
  contactsToJson,
  contactsToTxt,
  csvCell,
  csvHeader,
  csvRow,
  NO_CONTACTS_TO_DOWNLOAD,
  type ExportContact,
} from "./export";

const HEADER = '"firstName","lastName","phone","email","company","address","city","state","zipCode"\r\n';

const ada: ExportContact = ADA;
const bare: ExportContact = {
  firstName: "Bob",
  lastName: "Ray",
  phone: "3105552368",
  email: null,
  company: null,
  address: null,
  city: null,
  state: null,
  zipCode: null,
};

describe("csvCell", () => {
  it.each([
    ["plain", '"plain"'],
    ['a"b', '"a""b"'],
    ['"', '""""'],
    ["a,b", '"a,b"'],
    ["line\nbreak", '"line\nbreak"'],
    ["=SUM(A1)", `"'=SUM(A1)"`],
    ["+1", `"'+1"`],
    ["-2", `"'-2"`],
    ["@x", `"'@x"`],
    ["\tx", `"'\tx"`],
    ["\rx", `"'\rx"`],
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ["a=b", '"a=b"'], // only a leading trigger counts
    ["", '""'],
  ])("%j → %s", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it("renders null and undefined as an empty cell", () => {
    expect(csvCell(null)).toBe('""');
    expect(csvCell(undefined)).toBe('""');
  });
});

describe("CSV export", () => {
  it("quotes every cell, uses CRLF and the documented column order", () => {
    expect(csvHeader()).toBe(HEADER);
    expect(contactsToCsv([ada, bare])).toBe(
      HEADER +
        `"Ada","Lovelace","'+12125554567","ada@example.com","Analytical Ltd","1 Main St","Albany","NY","12207"\r\n` +
        `"Bob","Ray","3105552368","","","","","",""\r\n`,
    );
  });

  it("is header + csvRow per row, so a route can stream it page by page", () => {
    expect(contactsToCsv([ada, bare])).toBe(csvHeader() + csvRow(ada) + csvRow(bare));
    expect(contactsToCsv([])).toBe(HEADER);
  });

  it("survives a round trip through the importer (apart from the neutralising quote)", () => {
    const tricky: ExportContact = { ...bare, firstName: 'Mary "May"', lastName: "O'Neil", company: "Sun, Wind\nCo" };
    const { rows, errors } = parseContactsCsv(contactsToCsv([tricky]));
    expect(errors).toEqual([]);
    expect(rows[0]).toMatchObject({ firstName: 'Mary "May"', lastName: "O'Neil", company: "Sun, Wind\nCo" });
  });
});

describe("JSON export", () => {
  it("is a pretty array of the export columns only, nulls kept", () => {
    const withId = { ...bare, id: 7, createdBy: 1 } as ExportContact;
    const json = contactsToJson([ada, withId]);
    expect(json).toContain('\n  {\n    "firstName": "Ada"');
    const parsed = JSON.parse(json);
    expect(parsed).toEqual([ada, bare]);
    expect(Object.keys(parsed[1])).toEqual(
      HEADER.trim()
        .split(",")
        .map((h) => JSON.parse(h)),
    );
    expect(contactsToJson([])).toBe("[]");
  });
});

describe("TXT export", () => {
  it("writes one readable line per contact, leaving blanks out", () => {
    expect(contactsToTxt([ada, bare])).toBe(
      "Ada Lovelace | '+12125554567 | ada@example.com | Analytical Ltd | 1 Main St, Albany, NY 12207\n" +
        "Bob Ray | 3105552368\n",
    );
  });

  it("keeps a contact on one line even when a value holds line breaks", () => {
    const txt = contactsToTxt([{ ...bare, company: "Sun\r\nWind" }]);
    expect(txt).toBe("Bob Ray | 3105552368 | Sun Wind\n");
  });

  it("is formula-safe: a part starting with = + - @ gets a leading apostrophe, as in the CSV (issue 23)", () => {
    const evil = {
      ...bare,
      firstName: '=HYPERLINK("http://x")',
      lastName: "",
      email: "@SUM(1)",
      company: "-2+3",
      address: "+cmd|' /C calc'!A0",
    };
    expect(contactsToTxt([evil])).toBe(
      `'=HYPERLINK("http://x") | 3105552368 | '@SUM(1) | '-2+3 | '+cmd|' /C calc'!A0\n`,
    );
  });

  it("is empty for no contacts", () => {
    expect(contactsToTxt([])).toBe("");
  });
});

it("exports the empty-download message", () => {
  expect(NO_CONTACTS_TO_DOWNLOAD).toBe("No contacts to download");
});
