import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ADA } from "../../tests/contact-fixtures";
import {
  CONTACTS_TEMPLATE_CSV,
  CONTACTS_TEMPLATE_FILENAME,
  CSV_PARSE_FAILED,
  fieldForHeader,
  formatErrorPreview,
  parseContactsCsv,
} from "./csv-import";
import { assessPhone } from "./phone";

const FAILED = "Failed to parse CSV file. Please check the format.";

describe("header aliases", () => {
  const aliases: Record<string, string[]> = {
    firstName: ["firstName", "first_name", "First Name", "first", "fname", "given name"],
    lastName: ["lastName", "last_name", "Last Name", "last", "lname", "surname", "family name"],
    phone: ["phone", "Phone", "phone_number", "Phone Number", "mobile", "Mobile", "cell", "telephone"],
    email: ["email", "Email", "e-mail", "email_address", "Email Address"],
    company: ["company", "organization", "organisation", "business"],
    address: ["address", "street", "location", "address1", "street address"],
    city: ["city", "town"],
    state: ["state", "province", "region", "st"],
    zipCode: ["zip", "zipCode", "zip_code", "postal code", "postcode", "zip code"],
  };

  for (const [field, list] of Object.entries(aliases)) {
    it.each(list)(`%j maps to ${field}`, (alias) => {
      expect(fieldForHeader(alias)).toBe(field);
      expect(fieldForHeader(` ${alias.toUpperCase()} `)).toBe(field);
    });
  }

  it("ignores case, spaces, underscores and dashes", () => {
    expect(fieldForHeader("FIRST-NAME")).toBe("firstName");
    expect(fieldForHeader("Zip_Code")).toBe("zipCode");
    expect(fieldForHeader("E_Mail")).toBe("email");
    expect(fieldForHeader("notes")).toBeNull();
  });

  it("maps a whole file with alias headers", () => {
    const csv =
      "Given Name,Surname,Mobile,E-mail,Organisation,Street Address,Town,Province,Postal Code\n" +
      "Ada,Lovelace,(212) 555-4567, ADA@Example.COM ,Analytical Ltd,1 Main St,Albany,new york,12207\n";
    const result = parseContactsCsv(csv);
    expect(result.fatal).toBeNull();
    expect(result.errors).toEqual([]);
    expect(result.rows).toEqual([{ rowNumber: 2, ...ADA }]);
  });
});

describe("parseContactsCsv rows", () => {
  it("normalises phones, trims strings and turns empty optionals into null", () => {
    const csv = "firstName,lastName,email,phone,company,state,zip\n  John , Doe ,,1-310-555-2368,  ,Ontario,  \n";
    const { rows, errors, totalRows } = parseContactsCsv(csv);
    expect(errors).toEqual([]);
    expect(totalRows).toBe(1);
    expect(rows[0]).toMatchObject({
      firstName: "John",
      lastName: "Doe",
      phone: "+13105552368",
      email: null,
      company: null,
      address: null,
      state: "Ontario", // unrecognised: kept as typed
      zipCode: null,
    });
  });

  it("keeps a phone that cannot be normalised as typed (SPEC: unchanged)", () => {
    const { rows } = parseContactsCsv("firstName,lastName,phone\nA,B,+44 20 7946 0958\n");
    expect(rows[0].phone).toBe("+44 20 7946 0958");
  });

  it("numbers errors N = data-row index + 2 and reports several errors per row", () => {
    const csv = [
      "firstName,lastName,phone,email",
      "Ok,One,3105552368,", // row 2
      ",Doe,3105552369,", // row 3
      "Jane,,,", // row 4: two errors
      ",,,not-an-email", // row 5: four errors
      "Ok,Two,3105552370,OK@EXAMPLE.COM", // row 6
    ].join("\n");
    const result = parseContactsCsv(csv);
    expect(result.errors).toEqual([
      "Row 3: First name is required",
      "Row 4: Last name is required",
      "Row 4: Phone number is required",
      "Row 5: First name is required",
      "Row 5: Last name is required",
      "Row 5: Phone number is required",
      "Row 5: Invalid email address",
    ]);
    expect(result.rows.map((r) => [r.rowNumber, r.firstName, r.email])).toEqual([
      [2, "Ok", null],
      [6, "Ok", "ok@example.com"],
    ]);
    expect(result.totalRows).toBe(5);
  });

  it("drops a row whose only problem is an invalid email", () => {
    const result = parseContactsCsv("firstName,lastName,phone,email\nA,B,3105552368,a@b\n");
    expect(result.errors).toEqual(["Row 2: Invalid email address"]);
    expect(result.rows).toEqual([]);
  });

  it("skips blank lines (including comma-only lines) without errors, keeping spreadsheet row numbers", () => {
    const csv = "firstName,lastName,phone\n\nA,B,3105552368\n   \n,,\n,C,3105552369\n\n";
    const result = parseContactsCsv(csv);
    expect(result.errors).toEqual(["Row 6: First name is required"]);
    expect(result.rows.map((r) => r.rowNumber)).toEqual([3]);
    expect(result.totalRows).toBe(2);
  });

  it("handles quoted fields with commas, newlines and doubled quotes", () => {
    const csv =
      "firstName,lastName,phone,company,address\r\n" +
      '"Mary ""May""",O\'Neil,"(212) 555-4567","Sun, Wind & Co","12 Elm St\r\nApt 4"\r\n' +
      "Bob,Ray,3105552368,,\r\n";
    const { rows, errors, fatal } = parseContactsCsv(csv);
    expect(fatal).toBeNull();
    expect(errors).toEqual([]);
    expect(rows[0]).toMatchObject({
      rowNumber: 2,
      firstName: 'Mary "May"',
      lastName: "O'Neil",
      phone: "+12125554567",
      company: "Sun, Wind & Co",
      address: "12 Elm St\r\nApt 4",
    });
    expect(rows[1]).toMatchObject({ rowNumber: 3, firstName: "Bob" });
  });

  it("strips a UTF-8 BOM so the first column is still recognised", () => {
    const { rows, fatal } = parseContactsCsv("\uFEFFfirstName,lastName,phone\r\nA,B,3105552368\r\n");
    expect(fatal).toBeNull();
    expect(rows).toHaveLength(1);
    expect(rows[0].firstName).toBe("A");
  });

  it("takes the first non-blank value when two columns map to one field, a mobile column first", () => {
    const { rows } = parseContactsCsv(
      "firstName,lastName,Phone,Mobile\nA,B,,3105552368\nC,D,2125554567,3105552369\nE,F,2125554568,\n",
    );
    expect(rows.map((r) => r.phone)).toEqual(["+13105552368", "+13105552369", "+12125554568"]);
  });

  it("accepts a semicolon-separated export", () => {
    const { rows, fatal } = parseContactsCsv("First Name;Last Name;Phone\nA;B;3105552368\n");
    expect(fatal).toBeNull();
    expect(rows).toHaveLength(1);
  });

  it("reports missing required columns per row when only some are present", () => {
    const result = parseContactsCsv("firstName,lastName\nA,B\n");
    expect(result.fatal).toBeNull();
    expect(result.errors).toEqual(["Row 2: Phone number is required"]);
  });
});

describe("parseContactsCsv fatal cases", () => {
  it.each([
    ["empty file", ""],
    ["only blank lines", "\n\n  \n"],
    ["header only", "firstName,lastName,phone\n"],
    ["header and blank lines only", "firstName,lastName,phone\n\n,,\n"],
    ["no recognisable column", "foo,bar,baz\n1,2,3\n"],
    ["unterminated quote", 'firstName,lastName,phone\n"A,B,3105552368\nC,D,3105552369\n'],
  ])("%s", (_name, csv) => {
    expect(parseContactsCsv(csv)).toEqual({ rows: [], errors: [], totalRows: 0, fatal: FAILED });
  });

  it("uses the spec's wording", () => {
    expect(CSV_PARSE_FAILED).toBe(FAILED);
  });

  it("never throws on non-string input", () => {
    expect(parseContactsCsv(undefined as unknown as string).fatal).toBe(FAILED);
    expect(parseContactsCsv(42 as unknown as string).fatal).toBe(FAILED);
  });
});

describe("parseContactsCsv properties", () => {
  const checkResult = (text: string) => {
    const result = parseContactsCsv(text);
    expect(Array.isArray(result.rows)).toBe(true);
    for (const row of result.rows) {
      expect(row.firstName.trim()).not.toBe("");
      expect(row.lastName.trim()).not.toBe("");
      expect(row.phone.trim()).not.toBe("");
    }
    if (result.fatal !== null) expect(result.rows).toEqual([]);
  };

  it("never throws on arbitrary strings", () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), checkResult), { numRuns: 300 });
  });

  it("never throws on comma/newline/quote soup under a valid header", () => {
    const piece = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(",", "\n", "\r\n", '"', '""', " ", "\uFEFF"));
    const soup = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(soup, fc.boolean(), (body, withHeader) => {
        checkResult(withHeader ? `firstName,lastName,phone,email\n${body}` : body);
      }),
      { numRuns: 300 },
    );
  });

  it("never throws on grids of arbitrary cells joined with commas and newlines", () => {
    const grid = fc.array(fc.array(fc.string({ maxLength: 10 }), { maxLength: 6 }), { maxLength: 8 });
    fc.assert(
      fc.property(grid, fc.constantFrom("\n", "\r\n"), (cells, eol) => {
        checkResult("first,last,phone\n" + cells.map((r) => r.join(",")).join(eol));
      }),
      { numRuns: 300 },
    );
  });
});

describe("formatErrorPreview", () => {
  const errors = Array.from({ length: 8 }, (_, i) => `Row ${i + 2}: First name is required`);

  it("shows the first 5, then '... and K more errors'", () => {
    expect(formatErrorPreview(errors)).toEqual([...errors.slice(0, 5), "... and 3 more errors"]);
  });

  it("adds no suffix when everything fits", () => {
    expect(formatErrorPreview(errors.slice(0, 5))).toEqual(errors.slice(0, 5));
    expect(formatErrorPreview([])).toEqual([]);
  });

  it("honours a custom count", () => {
    expect(formatErrorPreview(errors, 2)).toEqual([errors[0], errors[1], "... and 6 more errors"]);
  });
});

describe("contacts template", () => {
  it("is contacts_template.csv with the documented header and two sendable sample rows", () => {
    expect(CONTACTS_TEMPLATE_FILENAME).toBe("contacts_template.csv");
    expect(CONTACTS_TEMPLATE_CSV.split("\r\n")[0]).toBe("firstName,lastName,email,phone");
    const result = parseContactsCsv(CONTACTS_TEMPLATE_CSV);
    expect(result.fatal).toBeNull();
    expect(result.errors).toEqual([]);
    expect(result.rows).toHaveLength(2);
    for (const row of result.rows) expect(assessPhone(row.phone)).toEqual({ sendable: true });
  });
});

describe("field limits: one schema with the API (issue 9 #5)", () => {
  it("a 5,000-character first name is a Row N error, not a stored contact", () => {
    const long = "A".repeat(5000);
    const result = parseContactsCsv(
      `firstName,lastName,phone,company\r\nAda,Lovelace,3105552368,\r\n${long},Smith,7135554821,\r\nJo,Bloggs,7135554822,${"c".repeat(201)}\r\n`,
    );
    expect(result.rows.map((r) => r.firstName)).toEqual(["Ada"]);
    expect(result.errors).toEqual([
      "Row 3: First name: Must be at most 100 characters",
      "Row 4: Company: Must be at most 200 characters",
    ]);
  });

  it("a value that repeats gets the same verdict on every row (fields are checked once per distinct value)", () => {
    const tooLong = "c".repeat(201);
    const rows = [1, 2, 3]
      .map((i) => `Jo${i},Bloggs,713555482${i},${tooLong}`)
      .concat(["Al,Bloggs,7135554829,Sun Co", "Bo,Bloggs,7135554828,Sun Co"]);
    const result = parseContactsCsv(`firstName,lastName,phone,company\n${rows.join("\n")}\n`);
    expect(result.errors).toEqual([2, 3, 4].map((n) => `Row ${n}: Company: Must be at most 200 characters`));
    expect(result.rows.map((r) => [r.firstName, r.company])).toEqual([
      ["Al", "Sun Co"],
      ["Bo", "Sun Co"],
    ]);
  });

  it("accepts exactly what the API's contactSchema accepts for lengths (property)", async () => {
    const { contactSchema } = await import("./contact-schema");
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom("firstName", "lastName", "city", "company", "address", "state", "zipCode"),
        (n, field) => {
          const value = "x".repeat(n);
          const row = { firstName: "Ada", lastName: "Lovelace", phone: "3105552368", [field]: value };
          const api = contactSchema.safeParse(row).success;
          const header = Object.keys(row).join(",");
          const csv = parseContactsCsv(`${header}\r\n${Object.values(row).join(",")}\r\n`);
          return api === (csv.rows.length === 1);
        },
      ),
    );
  });
});
