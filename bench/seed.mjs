#!/usr/bin/env node
// `npm run bench:seed`: a year of a sales team's data (bench/lib/scale-seed.mjs: 100,000 contacts, 1,000,000
// messages, 200 campaigns) in the local D1 that `npm start` serves, to look at every screen at scale. Migrates the
// local D1 first; the rows belong to the superuser `npm start` creates. The same --seed gives the same rows.
//
//   node bench/seed.mjs [--seed 1] [--contacts 100000] [--messages 1000000] [--campaigns 200]
//
// Stop `npm start` first: both would write the same local database.
import { getPlatformProxy } from "wrangler";
import { migrate, offlineEnv, parseArgs } from "../scripts/lib/d1.mjs";
import { ADMIN, createUser } from "../scripts/lib/users.mjs";
import { seedAtScale } from "./lib/scale-seed.mjs";

Object.assign(process.env, offlineEnv);
const flags = parseArgs(process.argv.slice(2));
const count = (name, fallback, max) => {
  const n = flags[name] === undefined ? fallback : Number(flags[name]);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    console.error(`--${name} must be a whole number from 1 to ${max.toLocaleString("en-US")}`);
    process.exit(2);
  }
  return n;
};
const opts = {
  seed: count("seed", 1, 1_000_000),
  contacts: count("contacts", 100_000, 1_000_000),
  messages: count("messages", 1_000_000, 10_000_000),
  campaigns: count("campaigns", 200, 10_000),
};

migrate();
await createUser(ADMIN, { onConflict: "ignore" });
// persist: the same .wrangler/state the local `wrangler dev` of `npm start` reads.
const { env, dispose } = await getPlatformProxy({ persist: true, remoteBindings: false });
try {
  const db = env.DB;
  if (await db.prepare("SELECT 1 FROM messages WHERE idempotency_key LIKE 'seed:%' LIMIT 1").first()) {
    console.error(
      "This local database already holds seeded data (its phone numbers would collide). Start from a fresh one: rm -rf .wrangler/state",
    );
    process.exitCode = 1;
  } else {
    const { id: userId } = await db.prepare("SELECT id FROM users WHERE email = ?").bind(ADMIN.email).first();
    const r = await seedAtScale(db, { ...opts, userId });
    console.log(
      `Seeded with --seed ${opts.seed}: ${r.contacts.toLocaleString("en-US")} contacts, ${r.messages.toLocaleString("en-US")} messages, ` +
        `${r.campaigns} campaigns, ${r.conversations.toLocaleString("en-US")} conversations in ${r.seconds.toFixed(1)} s (totals include what was there before).`,
    );
  }
} finally {
  await dispose();
}
