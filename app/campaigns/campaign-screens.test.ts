import { describe, expect, it } from "vitest";
import { createTestUser, db } from "../../tests/factories";
import { createTestContact, uniqueTag } from "../../tests/contact-factory";
import { countContacts } from "~/contacts/list-contacts.server";
import { countMatchingContacts } from "./count-matching-contacts.server";
import { localToUtc } from "./local-time";

describe("localToUtc (the create dialog's start time)", () => {
  it("reads the wall time in the given zone, across DST", () => {
    expect(localToUtc("2026-12-01T09:30", "America/Los_Angeles")?.toISOString()).toBe("2026-12-01T17:30:00.000Z"); // PST
    expect(localToUtc("2026-07-01T09:30", "America/Los_Angeles")?.toISOString()).toBe("2026-07-01T16:30:00.000Z"); // PDT
    expect(localToUtc("2026-03-08T12:00", "America/New_York")?.toISOString()).toBe("2026-03-08T16:00:00.000Z"); // the day DST starts
    expect(localToUtc("2026-12-01T09:30", "UTC")?.toISOString()).toBe("2026-12-01T09:30:00.000Z");
  });
  it("refuses a malformed time or an unknown zone", () => {
    expect(localToUtc("2026-13-01T09:30", "UTC")).toBeNull();
    expect(localToUtc("tomorrow", "UTC")).toBeNull();
    expect(localToUtc("2026-12-01T09:30", "Mars/Olympus")).toBeNull();
  });
});

describe("countMatchingContacts (select all N matching)", () => {
  it("uses the maintained total without a search and counts a search's matches", async () => {
    const user = await createTestUser();
    const tag = uniqueTag("Pick");
    for (let i = 0; i < 3; i++) await createTestContact(user.id, { lastName: tag });
    expect(await countMatchingContacts(db(), tag)).toEqual({ n: 3, more: false });
    expect(await countMatchingContacts(db(), uniqueTag("none"))).toEqual({ n: 0, more: false });
    expect(await countMatchingContacts(db(), "")).toEqual({ n: await countContacts(db()), more: false });
  });
});
