// Issue 23 (audit): the admin CLI accepted 8-character passwords (the app requires 10) and could deactivate the last
// superuser. It now checks the app's own rule (app/auth/password-rules.js) and the same last-superuser condition.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_PASSWORD_LENGTH } from "../app/auth/password-rules.js";
import { HAND_OFF_INVALID, HAND_OFF_REQUIRED, LAST_SUPERUSER } from "../app/users/superuser-rules.js";
import { d1, migrate } from "./lib/d1.mjs";
import { createUser, setUserActive, validateUserInput } from "./lib/users.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const valid = { email: "ann@helio.test", password: "ten chars!", role: "user", first: "Ann", last: "Lee" };

describe("user:create uses the app's password rule", () => {
  it("refuses 8 and 9 characters, accepts the app's minimum", () => {
    expect(MIN_PASSWORD_LENGTH).toBe(10);
    expect(validateUserInput({ ...valid, password: "12345678" })).toEqual(["--password: Use at least 10 characters"]);
    expect(validateUserInput({ ...valid, password: "123456789" })).toHaveLength(1);
    expect(validateUserInput({ ...valid, password: true })).toHaveLength(1); // `--password` with no value
    expect(validateUserInput(valid)).toEqual([]);
  });

  it("the script exits 2 with the rule's message before touching any database", () => {
    const r = spawnSync(
      process.execPath,
      [
        "scripts/user-create.mjs",
        "--email",
        "bo@helio.test",
        "--password",
        "eightch!",
        "--role",
        "user",
        "--first",
        "Bo",
        "--last",
        "Ng",
        "--persist-to",
        "/nonexistent",
      ],
      {
        cwd: root,
        encoding: "utf8",
      },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("Use at least 10 characters");
  });
});

describe("user:deactivate never leaves the organisation without an active superuser", () => {
  const dir = mkdtempSync(join(tmpdir(), "helio-users-cli-"));
  const opts = { persistTo: dir };
  beforeAll(() => migrate(opts), 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses the last active superuser with the app's message (library and script), allows it once another exists", async () => {
    await createUser(
      { email: "root@helio.test", password: "root-password", role: "superuser", first: "Ro", last: "Ot" },
      opts,
    );
    await createUser({ email: "rep@helio.test", password: "rep-password", role: "user", first: "Re", last: "P" }, opts);
    expect(() => setUserActive("root@helio.test", false, opts)).toThrow(LAST_SUPERUSER);
    const script = spawnSync(
      process.execPath,
      ["scripts/user-set-active.mjs", "deactivate", "--email", "root@helio.test", "--persist-to", dir],
      { cwd: root, encoding: "utf8" },
    );
    expect(script.status).toBe(1);
    expect(script.stderr).toContain(LAST_SUPERUSER);
    expect(d1("SELECT is_active FROM users WHERE email = 'root@helio.test'", opts)).toEqual([{ is_active: 1 }]);

    setUserActive("rep@helio.test", false, opts); // a standard user: fine
    await createUser(
      { email: "second@helio.test", password: "second-password", role: "superuser", first: "Se", last: "Cond" },
      opts,
    );
    setUserActive("root@helio.test", false, opts); // another active superuser remains
    expect(() => setUserActive("second@helio.test", false, opts)).toThrow(LAST_SUPERUSER);
    setUserActive("root@helio.test", true, opts);
    expect(d1("SELECT email FROM users WHERE role = 'superuser' AND is_active = 1 ORDER BY email", opts)).toEqual([
      { email: "root@helio.test" },
      { email: "second@helio.test" },
    ]);
  }, 120_000);

  it("hands a deactivated user's contacts to the named user in the same command (decision 044)", async () => {
    await createUser(
      { email: "setter@helio.test", password: "setter-password", role: "user", first: "Se", last: "T" },
      opts,
    );
    await createUser(
      { email: "closer@helio.test", password: "closer-password", role: "user", first: "Cl", last: "O" },
      opts,
    );
    const [setter] = d1("SELECT id FROM users WHERE email = 'setter@helio.test'", opts);
    const now = Date.now();
    d1(
      `INSERT INTO contacts (first_name, last_name, phone, owner_user_id, created_at, updated_at)
       VALUES ('A', 'B', '+14155550101', ${setter.id}, ${now}, ${now}), ('C', 'D', '+14155550102', ${setter.id}, ${now}, ${now})`,
      opts,
    );
    expect(() => setUserActive("setter@helio.test", false, opts)).toThrow(HAND_OFF_REQUIRED);
    expect(() => setUserActive("setter@helio.test", false, { ...opts, handOffTo: "setter@helio.test" })).toThrow(
      HAND_OFF_INVALID,
    );
    const script = spawnSync(
      process.execPath,
      [
        "scripts/user-set-active.mjs",
        "deactivate",
        "--email",
        "setter@helio.test",
        "--hand-off-to",
        "closer@helio.test",
        "--persist-to",
        dir,
      ],
      { cwd: root, encoding: "utf8" },
    );
    expect(script.status, script.stderr).toBe(0);
    expect(
      d1(
        "SELECT u.email FROM contacts c JOIN users u ON u.id = c.owner_user_id WHERE c.phone LIKE '+1415555010_'",
        opts,
      ),
    ).toEqual([{ email: "closer@helio.test" }, { email: "closer@helio.test" }]);
    expect(d1("SELECT is_active FROM users WHERE email = 'setter@helio.test'", opts)).toEqual([{ is_active: 0 }]);
  }, 120_000);
});
