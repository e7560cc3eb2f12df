#!/usr/bin/env node
// What each *event* costs in D1 rows as history grows (issue 22): the real Worker in Miniflare, driven through its
// routes, queues and cron, over a D1 holding --scales stored messages (bench/lib/scale-seed.mjs: 100,000 contacts,
// 200 campaigns, 100,000 enrolments waiting for a later step). bench/lib/metered-worker.js tallies D1's own
// meta.rows_read / meta.rows_written — the figures Cloudflare bills — over each event's whole cascade (the webhook,
// the queue jobs it starts, the sends they make), until every handler has finished and every queued job was consumed.
// Each figure sits beside its floor: the bare SQL the operation cannot do without (find the row, write it), run
// on the same database in the same run.
//
// Budgets (exit 1 when one fails): rows read per status callback ≤ 10 and the same at every scale; rows read per
// inbound reply ≤ 300 and within ±10% of the smallest scale; rows written per broadcast SMS from created to
// delivered ≤ 25 (the volume path: an individual send adds its activity-log row and its own pacing row, printed
// beside it); rows read per idle cron tick ≤ 30 at the largest scale (the heaviest minute of a housekeeping cycle).
//
//   node bench/events.mjs [--scales 10000,1000000,5000000] [--repeat 5] [--verbose] [--json out.json]
import { createHmac, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeTwilio } from "../tests/fakes/fake-twilio.mjs";
import {
  api,
  BENCH_FROM,
  bundleWorker,
  createBenchUser,
  login,
  migrate,
  runCron,
  startHelioOnFake,
} from "./lib/helio.mjs";
import { daytimeZone } from "./lib/recipients.mjs";
import { seedAtScale } from "./lib/scale-seed.mjs";
import { benchSession, parseFlags, runBench, sleep } from "./lib/util.mjs";

const flags = parseFlags(process.argv.slice(2));
const SCALES = String(flags.scales ?? "10000,1000000,5000000")
  .split(",")
  .map(Number);
const REPEAT = Number(flags.repeat ?? 5);
const VERBOSE = Boolean(flags.verbose);
const BASE = "https://bench.helio.example"; // PUBLIC_BASE_URL: Twilio signs the URL it called
const CAMPAIGN_RECIPIENTS = 20;
const BUDGET = { callbackRead: 10, inboundRead: 300, inboundDrift: 0.1, smsWritten: 25, idleCronRead: 30 };

const { log, cleanups, cleanup } = benchSession();

/** Twilio's X-Twilio-Signature: base64 HMAC-SHA1 over the URL and the sorted parameters. */
function sign(token, url, params) {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, k) => acc + k + params[k], url);
  return createHmac("sha1", token).update(data).digest("base64");
}

async function scaleRun(scriptPath, fake, messages) {
  const tz = daytimeZone();
  const { account, depth, h } = await startHelioOnFake(fake, {
    scriptPath,
    cleanups,
    bindings: { PUBLIC_BASE_URL: BASE },
  });
  const { mf, db } = h;
  await migrate(db);
  const user = { id: await createBenchUser(db) };
  const seeded = await seedAtScale(db, {
    contacts: 100_000,
    messages,
    enrollments: 100_000,
    userId: user.id,
    smsSender: BENCH_FROM,
  });
  await db.exec("PRAGMA optimize");
  log(
    `${messages.toLocaleString("en-US")} messages: seeded ${seeded.contacts.toLocaleString("en-US")} contacts, ${seeded.messages.toLocaleString("en-US")} messages, ${seeded.enrollments.toLocaleString("en-US")} enrolments in ${seeded.seconds.toFixed(1)} s`,
  );
  const cookie = await login(mf);

  // The contacts events happen to: active leads, the ones texted most recently (so at every scale a reply has a
  // campaign to be attributed to, and the figures compare the same work), moved into a zone where it is daytime now.
  const busy = (
    await db
      .prepare(
        `SELECT contact_id AS id FROM messages WHERE id > (SELECT max(id) FROM messages) - 20000 AND contact_id IS NOT NULL
         GROUP BY contact_id ORDER BY max(id) DESC LIMIT ${REPEAT * 4 + CAMPAIGN_RECIPIENTS}`,
      )
      .all()
  ).results.map((r) => r.id);
  await db
    .prepare(`UPDATE contacts SET time_zone = ? WHERE id IN (SELECT value FROM json_each(?))`)
    .bind(tz.zone, JSON.stringify(busy))
    .run();
  const phoneOf = async (id) => await db.prepare("SELECT phone FROM contacts WHERE id = ?").bind(id).first("phone");

  const meter = async (reset = true) =>
    (await mf.dispatchFetch(`http://127.0.0.1/__bench/d1${reset ? "" : "?reset=0"}`)).json();
  /** Waits until every handler has returned, every produced job was consumed, and nothing touched D1 for a moment. */
  async function settle() {
    const start = Date.now();
    for (;;) {
      const s = await meter(false);
      if (s.inFlight === 0 && s.consumed >= s.produced && s.quietMs >= 150) return;
      if (Date.now() - start > 60_000)
        throw new Error(`did not settle: ${JSON.stringify({ ...s, byStatement: undefined })}`);
      await sleep(25);
    }
  }
  /** The D1 rows an event cost, from a clean tally to a settled Worker. */
  async function tally(run) {
    await settle();
    await meter();
    await run();
    await settle();
    return meter();
  }
  const post = async (path, params) => {
    const res = await mf.dispatchFetch(`http://127.0.0.1${path}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Twilio-Signature": sign(account.authToken, BASE + path, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${text}`);
  };
  const callback = (sid, status) =>
    post("/webhooks/twilio/status", { MessageSid: sid, MessageStatus: status, AccountSid: account.accountSid });
  const inbound = async (contactId, body) =>
    post("/webhooks/twilio/sms", {
      MessageSid: "SM" + randomBytes(16).toString("hex"),
      From: await phoneOf(contactId),
      To: BENCH_FROM,
      Body: body,
      AccountSid: account.accountSid,
    });

  const samples = {
    callbackSent: [],
    callbackDelivered: [],
    sendWritten: [],
    sendRead: [],
    smsWritten: [],
    smsRead: [],
    inboundPlain: [],
    inboundKeyword: [],
    inboundStop: [],
    idleCron: [],
    broadcastSms: [],
    broadcastFirstSms: [],
  };
  const statementsOf = {};
  // --verbose: each event's statements summed over its samples, costliest first.
  const keep = (name, m) => {
    samples[name].push(m);
    if (!VERBOSE) return;
    const all = new Map((statementsOf[name] ?? []).map((x) => [x.sql, { ...x }]));
    for (const x of m.byStatement) {
      const y = all.get(x.sql) ?? { sql: x.sql, read: 0, written: 0, n: 0 };
      all.set(x.sql, { sql: x.sql, read: y.read + x.read, written: y.written + x.written, n: y.n + x.n });
    }
    statementsOf[name] = [...all.values()].sort((a, b) => b.read + b.written - (a.read + a.written)).slice(0, 40);
  };
  const pick = () => busy.shift();

  // Idle cron ticks first, while nothing at all is due (100,000 enrolments waiting for a later step): one on each
  // minute of a housekeeping cycle (each purge runs on its own minute of ten, HOUSEKEEPING_EVERY), the figure is the
  // heaviest of them.
  const cycle = (Math.floor(Date.now() / 60_000) + 1) * 60_000;
  await runCron(mf, new Date(cycle - 59_000));
  for (let k = 0; k < 10; k++) keep("idleCron", await tally(() => runCron(mf, new Date(cycle + k * 60_000 + 1_000))));

  // One SMS, created → delivered: the API call, the queue, the provider, then Twilio's "sent" and "delivered".
  for (let i = 0; i < REPEAT; i++) {
    const id = pick();
    const send = await tally(() =>
      api(mf, cookie, "POST", "/api/messages/send-individual", {
        contactId: id,
        type: "sms",
        message: `Hi, it's Sam from Helio Solar (${i})`,
      }),
    );
    const row = await db
      .prepare(
        "SELECT twilio_sid AS sid, status FROM messages WHERE contact_id = ? AND direction = 'outbound' ORDER BY id DESC LIMIT 1",
      )
      .bind(id)
      .first();
    if (!row?.sid) throw new Error(`the individual send did not reach the provider: ${JSON.stringify(row)}`);
    const sent = await tally(() => callback(row.sid, "sent"));
    const delivered = await tally(() => callback(row.sid, "delivered"));
    const status = await db.prepare("SELECT status FROM messages WHERE twilio_sid = ?").bind(row.sid).first("status");
    if (status !== "delivered") throw new Error(`the delivered callback left the message ${status}`);
    keep("callbackSent", sent);
    keep("callbackDelivered", delivered);
    samples.sendWritten.push(send.written);
    samples.sendRead.push(send.read);
    samples.smsWritten.push(send.written + sent.written + delivered.written);
    samples.smsRead.push(send.read + sent.read + delivered.read);
    if (VERBOSE && i === 0) statementsOf.send = send.byStatement.slice(0, 40);
  }

  // A broadcast to CAMPAIGN_RECIPIENTS contacts, created → delivered, per SMS: the volume path (no per-send audit row,
  // the sender's pacing row shared by the batch). Once to leads texted before (the budget), once to new
  // leads never texted — their first text also fixes the sticky number (decision 045) and moves them New → Contacted
  // (decision 053), writes a contact pays once, printed beside it.
  const broadcastPerSms = async (ids) => {
    const b = await tally(() =>
      api(mf, cookie, "POST", "/api/messages/send-broadcast", {
        type: "sms",
        content: "Hi {{firstName}}, solar savings are in",
        contactIds: ids,
      }),
    );
    const { results: sids } = await db
      .prepare(
        "SELECT twilio_sid AS sid FROM messages WHERE broadcast_id = (SELECT max(id) FROM broadcasts) AND twilio_sid IS NOT NULL",
      )
      .all();
    if (sids.length !== ids.length) throw new Error(`broadcast: ${sids.length} of ${ids.length} reached the provider`);
    let read = b.read;
    let written = b.written;
    for (const { sid } of sids)
      for (const status of ["sent", "delivered"]) {
        const m = await tally(() => callback(sid, status));
        read += m.read;
        written += m.written;
      }
    return { sample: { read: read / ids.length, written: written / ids.length }, byStatement: b.byStatement };
  };
  {
    // Leads texted before (past New, with their number): what a broadcast reaches in a year-old database.
    const texted = (
      await db
        .prepare(
          `SELECT id FROM contacts WHERE stage <> 'new' AND sms_sender IS NOT NULL AND id NOT IN (SELECT value FROM json_each(?))
           ORDER BY id DESC LIMIT ${CAMPAIGN_RECIPIENTS}`,
        )
        .bind(JSON.stringify(busy))
        .all()
    ).results.map((r) => r.id);
    if (texted.length !== CAMPAIGN_RECIPIENTS) throw new Error(`only ${texted.length} texted contacts in the seed`);
    await db
      .prepare(`UPDATE contacts SET time_zone = ? WHERE id IN (SELECT value FROM json_each(?))`)
      .bind(tz.zone, JSON.stringify(texted))
      .run();
    const b = await broadcastPerSms(texted);
    samples.broadcastSms = [b.sample];
    if (VERBOSE) statementsOf.broadcast = b.byStatement.slice(0, 40);
  }
  {
    const { results: fresh } = await db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${CAMPAIGN_RECIPIENTS - 1})
         INSERT INTO contacts (first_name, last_name, phone, state, time_zone, sendable, consent_source, consent_at, created_at, updated_at)
         SELECT 'New', 'Lead ' || i, '+1602' || printf('%07d', 3000000 + i), 'AZ', ?1, 1, 'bench', ?2, ?2, ?2 FROM n
         RETURNING id`,
      )
      .bind(tz.zone, Date.now())
      .all();
    const b = await broadcastPerSms(fresh.map((r) => r.id));
    samples.broadcastFirstSms = [b.sample];
    if (VERBOSE) statementsOf.broadcastFirst = b.byStatement.slice(0, 40);
  }

  // Inbound replies: plain, one that matches an auto-responder keyword (its answer is sent), and STOP.
  await api(mf, cookie, "POST", "/api/auto-responders", {
    name: "Pricing",
    keywords: ["pricing"],
    responses: { primary: "Thanks! A rep will text you the numbers today." },
  });
  for (let i = 0; i < REPEAT; i++)
    keep("inboundPlain", await tally(() => inbound(pick(), "Sounds good, what time works for you?")));
  for (let i = 0; i < REPEAT; i++)
    keep("inboundKeyword", await tally(() => inbound(pick(), "What's the pricing on a 7 kW system?")));
  for (let i = 0; i < REPEAT; i++) keep("inboundStop", await tally(() => inbound(pick(), "STOP")));

  // A campaign step: CAMPAIGN_RECIPIENTS enrolled contacts, one cron tick dispatches step 1 and the queue sends it.
  const c = await api(mf, cookie, "POST", "/api/campaigns", {
    name: "Bench events",
    contactIds: busy.slice(0, CAMPAIGN_RECIPIENTS),
  });
  await api(mf, cookie, "POST", "/api/campaign-steps", {
    campaignId: c.id,
    name: "Intro",
    messageType: "sms",
    content: "Hi {{firstName}}, quick solar question",
    delayDays: 0,
    delayHours: 0,
  });
  await api(mf, cookie, "POST", `/api/campaigns/${c.id}/start`);
  await settle();
  const step = await tally(() => runCron(mf));
  const stepSent = await db
    .prepare("SELECT count(*) AS n FROM messages WHERE campaign_id = ? AND status = 'sent'")
    .bind(c.id)
    .first("n");
  if (stepSent !== CAMPAIGN_RECIPIENTS) throw new Error(`campaign step: ${stepSent} of ${CAMPAIGN_RECIPIENTS} sent`);
  if (VERBOSE) statementsOf.campaignStep = step.byStatement.slice(0, 40);

  // Floors: the bare statements each event cannot do without, on the same database.
  const meta = async (...stmts) => {
    const rs = await db.batch(stmts);
    return rs.reduce((a, r) => ({ read: a.read + r.meta.rows_read, written: a.written + r.meta.rows_written }), {
      read: 0,
      written: 0,
    });
  };
  const anySid = await db
    .prepare("SELECT twilio_sid FROM messages WHERE status = 'sent' AND twilio_sid IS NOT NULL LIMIT 1")
    .first("twilio_sid");
  const floorCallback = await meta(
    db
      .prepare("UPDATE messages SET status = 'delivered', delivered_at = ?1, updated_at = ?1 WHERE twilio_sid = ?2")
      .bind(Date.now(), anySid),
  );
  const floorPhone = await phoneOf(busy[0]);
  const floorInbound = await meta(
    db.prepare("SELECT id FROM contacts WHERE phone = ?").bind(floorPhone),
    db
      .prepare(
        "INSERT INTO messages (direction, kind, status, phone, content, idempotency_key, created_at, updated_at) VALUES ('inbound', 'inbound', 'received', ?1, 'floor', ?2, ?3, ?3)",
      )
      .bind(floorPhone, "floor:in", Date.now()),
  );
  const ins = await db
    .prepare(
      "INSERT INTO messages (direction, kind, status, phone, content, idempotency_key, created_at, updated_at) VALUES ('outbound', 'individual', 'pending', ?1, 'floor', 'floor:out', ?2, ?2)",
    )
    .bind(floorPhone, Date.now())
    .run();
  const floorId = ins.meta.last_row_id;
  const upd = (status) =>
    db.prepare(`UPDATE messages SET status = ?, updated_at = ? WHERE id = ?`).bind(status, Date.now(), floorId);
  const floorSmsRest = await meta(upd("queued"), upd("sending"), upd("sent"), upd("delivered"));
  const floorSms = {
    read: ins.meta.rows_read + floorSmsRest.read,
    written: ins.meta.rows_written + floorSmsRest.written,
  };
  const floorCron = await meta(
    db.prepare("SELECT id FROM messages WHERE status = 'pending' AND scheduled_at <= ? LIMIT 1").bind(Date.now()),
    db
      .prepare("SELECT id FROM campaign_enrollments WHERE status = 'active' AND next_run_at <= ? LIMIT 1")
      .bind(Date.now()),
  );

  while (cleanups.length > depth) await cleanups.pop()();
  const avg = (xs, f = (x) => x) => xs.reduce((a, x) => a + f(x), 0) / xs.length;
  const r = (xs) => ({ read: avg(xs, (m) => m.read), written: avg(xs, (m) => m.written) });
  return {
    messages,
    seeded,
    callbackSent: r(samples.callbackSent),
    callbackDelivered: r(samples.callbackDelivered),
    send: { read: avg(samples.sendRead), written: avg(samples.sendWritten) },
    sms: { read: avg(samples.smsRead), written: avg(samples.smsWritten) },
    broadcastSms: r(samples.broadcastSms),
    broadcastFirstSms: r(samples.broadcastFirstSms),
    inboundPlain: r(samples.inboundPlain),
    inboundKeyword: r(samples.inboundKeyword),
    inboundStop: r(samples.inboundStop),
    campaignStep: { read: step.read / CAMPAIGN_RECIPIENTS, written: step.written / CAMPAIGN_RECIPIENTS },
    idleCron: {
      read: Math.max(...samples.idleCron.map((m) => m.read)),
      written: Math.max(...samples.idleCron.map((m) => m.written)),
    },
    floors: { callback: floorCallback, inbound: floorInbound, sms: floorSms, cron: floorCron },
    statementsOf,
  };
}

async function main() {
  const out = mkdtempSync(join(tmpdir(), "helio-events-"));
  cleanups.push(async () => rmSync(out, { recursive: true, force: true }));
  const scriptPath = bundleWorker(out, { wrapper: "metered-worker.js" });
  const fake = await startFakeTwilio({});
  cleanups.push(() => fake.stop());
  const runs = [];
  for (const n of SCALES) runs.push(await scaleRun(scriptPath, fake, n));

  const f = (x) => (Math.round(x * 10) / 10).toLocaleString("en-US");
  const rows = [
    ['status callback "sent"', (s) => s.callbackSent, (s) => s.floors.callback],
    ['status callback "delivered"', (s) => s.callbackDelivered, (s) => s.floors.callback],
    ["inbound reply, plain", (s) => s.inboundPlain, (s) => s.floors.inbound],
    ["inbound reply, keyword (auto-reply sent)", (s) => s.inboundKeyword, (s) => s.floors.inbound],
    ["inbound reply, STOP", (s) => s.inboundStop, (s) => s.floors.inbound],
    ["one SMS, API call → sent", (s) => s.send, (s) => s.floors.sms],
    ["one individual SMS, created → delivered", (s) => s.sms, (s) => s.floors.sms],
    ["broadcast, per SMS created → delivered", (s) => s.broadcastSms, (s) => s.floors.sms],
    ["  the same to new leads (their first text)", (s) => s.broadcastFirstSms, (s) => s.floors.sms],
    ["campaign step, per recipient → sent", (s) => s.campaignStep, (s) => s.floors.sms],
    ["idle cron tick (heaviest minute of 10)", (s) => s.idleCron, (s) => s.floors.cron],
  ];
  console.log(
    `\nD1 rows per event (read / written), each beside the bare statements it cannot do without on the same database:`,
  );
  console.log(
    `${"event".padEnd(42)}${runs.map((s) => `${s.messages.toLocaleString("en-US")} msgs`.padStart(30)).join("")}`,
  );
  for (const [name, get, floor] of rows) {
    console.log(
      `${name.padEnd(42)}${runs.map((s) => `${f(get(s).read)} / ${f(get(s).written)} (floor ${f(floor(s).read)} / ${f(floor(s).written)})`.padStart(30)).join("")}`,
    );
  }
  for (const s of runs)
    for (const [name, st] of Object.entries(s.statementsOf)) {
      console.log(
        `\n${s.messages.toLocaleString("en-US")} messages — ${name}: the costliest statements (read / written × calls)`,
      );
      for (const x of st)
        console.log(`  ${String(x.read).padStart(8)} / ${String(x.written).padStart(5)} × ${x.n}  ${x.sql}`);
    }

  const failures = [];
  const first = runs[0];
  const last = runs[runs.length - 1];
  for (const s of runs) {
    const at = `at ${s.messages.toLocaleString("en-US")} messages`;
    for (const [name, m] of [
      ["sent", s.callbackSent],
      ["delivered", s.callbackDelivered],
    ])
      if (m.read > BUDGET.callbackRead)
        failures.push(`rows read per "${name}" status callback ${at}: ${f(m.read)} (budget ≤ ${BUDGET.callbackRead})`);
    for (const [name, m, m0] of [
      ["plain", s.inboundPlain, first.inboundPlain],
      ["keyword", s.inboundKeyword, first.inboundKeyword],
      ["STOP", s.inboundStop, first.inboundStop],
    ]) {
      if (m.read > BUDGET.inboundRead)
        failures.push(`rows read per ${name} inbound reply ${at}: ${f(m.read)} (budget ≤ ${BUDGET.inboundRead})`);
      if (Math.abs(m.read - m0.read) > BUDGET.inboundDrift * Math.max(m0.read, 10))
        failures.push(
          `rows read per ${name} inbound reply ${at}: ${f(m.read)} against ${f(m0.read)} at ${first.messages.toLocaleString("en-US")} (budget ±${BUDGET.inboundDrift * 100}%)`,
        );
    }
    if (s.broadcastSms.written > BUDGET.smsWritten)
      failures.push(
        `rows written per broadcast SMS created → delivered ${at}: ${f(s.broadcastSms.written)} (budget ≤ ${BUDGET.smsWritten})`,
      );
  }
  for (const name of ["callbackSent", "callbackDelivered"])
    if (Math.abs(last[name].read - first[name].read) > 1)
      failures.push(`rows read per ${name} grow with history: ${f(first[name].read)} → ${f(last[name].read)}`);
  if (last.idleCron.read > BUDGET.idleCronRead)
    failures.push(
      `rows read per idle cron tick at ${last.messages.toLocaleString("en-US")} messages: ${f(last.idleCron.read)} (budget ≤ ${BUDGET.idleCronRead})`,
    );

  console.log(
    `\nBudgets: callback reads ≤ ${BUDGET.callbackRead} and flat; inbound reads ≤ ${BUDGET.inboundRead} and within ±${BUDGET.inboundDrift * 100}% of the smallest scale; SMS writes created → delivered ≤ ${BUDGET.smsWritten}; idle cron reads ≤ ${BUDGET.idleCronRead} at the largest scale.`,
  );
  for (const x of failures) console.log(`FAIL ${x}`);
  console.log(failures.length ? `${failures.length} budget(s) NOT MET` : "every budget holds");
  console.log(
    `(${cpus().length} cores, load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")})`,
  );
  if (flags.json) writeFileSync(String(flags.json), JSON.stringify(runs, null, 2));
  return failures.length ? 1 : 0;
}

runBench(main, cleanup);
