// Issue 23 (audit): the admin CLI accepted 8-character passwords (the app requires 10) and could deactivate the last
// superuser. It now checks the app's own rule (app/auth/password-rules.js) and the same last-superuser condition.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_PASSWORD_LENGTH } from "../app/auth/password-rules.js";
import { LAST_SUPERUSER } from "../app/users/superuser-rules.js";
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
});
