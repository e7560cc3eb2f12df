// The data a sales team has after a year on Helio (issue 15 "bench/seed"): 100,000 contacts, 1,000,000 messages
// and 200 campaigns, written straight into D1 with INSERT … SELECT over a recursive counter (no row crosses the
// process boundary), so it takes well under a minute, and every value derives from the row number and `seed`, so two runs
// with the same seed hold the same data. The triggers keep every counter, search index and conversation row as
// the app would.
const FIRST = [
  "Ana",
  "Ben",
  "Cara",
  "Dev",
  "Eli",
  "Fay",
  "Gus",
  "Hana",
  "Ivan",
  "Jade",
  "Kai",
  "Lena",
  "Milo",
  "Nia",
  "Omar",
  "Pia",
];
const LAST = ["Lee", "Diaz", "Khan", "Ng", "Smith", "Brown", "Garcia", "Patel", "Kim", "Lopez", "Young", "Hill"];
// Inbound and outbound texts a solar team sees; the search benchmark looks for words in them.
const TEXTS = [
  "Hi {n}, your solar quote is ready. Reply STOP to opt out",
  "Thanks! What would the panels cost for my roof?",
  "Following up on your battery storage question",
  "Can we move the site survey to Friday?",
  "Your installation is scheduled, our crew arrives at 9",
  "Is the federal tax credit still available this year?",
  "Great news: your system passed inspection",
  "Not interested right now, maybe next spring",
];
const STATUSES = ["delivered", "delivered", "delivered", "sent", "failed", "undelivered", "skipped", "delivered"];
const quote = (x) => `'${x.replaceAll("'", "''")}'`;
/** One of `list` chosen by the SQL expression `expr`: a CASE, so no per-row subquery. */
const pick = (list, expr) =>
  `CASE (${expr}) % ${list.length} ${list.map((x, k) => `WHEN ${k} THEN ${quote(x)}`).join(" ")} END`;

function counter(n) {
  return `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${n - 1})`;
}

/**
 * @param {D1Database} db  a migrated Helio D1 (Miniflare's binding)
 * @param {{ contacts?: number, messages?: number, campaigns?: number, enrollments?: number, seed?: number, userId: number, now?: number, append?: boolean, smsSender?: string | null }} o
 * @returns the figures of what was written and the seconds it took
 */
export async function seedAtScale(
  db,
  {
    contacts = 100_000,
    messages = 1_000_000,
    campaigns = 200,
    enrollments = 0,
    seed = 1,
    userId,
    now = Date.now(),
    append = false,
    smsSender = null,
  },
) {
  const started = Date.now();
  const year = 365 * 86_400_000;
  // Contacts in chunks of 20,000 rows per statement (one statement is one D1 transaction).
  for (let at = 0; !append && at < contacts; at += 20_000) {
    const n = Math.min(20_000, contacts - at);
    await db
      .prepare(
        `${counter(n)} INSERT INTO contacts (first_name, last_name, phone, email, company, state, time_zone, sendable, consent_source, consent_at, created_by, created_at, updated_at)
         SELECT ${pick(FIRST, `i + ${at} + ${seed}`)}, ${pick(LAST, `(i + ${at}) / 7 + ${seed}`)},
           '+1' || (212 + ((i + ${at}) % 7) * 100) || printf('%07d', 2000000 + i + ${at}),
           CASE WHEN (i + ${at}) % 3 = 0 THEN 'lead' || (i + ${at}) || '@example.com' END,
           CASE WHEN (i + ${at}) % 4 = 0 THEN 'Roof Co ' || ((i + ${at}) % 97) END, 'NY', 'America/New_York', 1, 'seed', ?1, ?2, ?1 - ${year} + (i + ${at}) * 300, ?1
         FROM n`,
      )
      .bind(now, userId)
      .run();
  }
  const first = await db.prepare("SELECT min(id) AS lo, max(id) AS hi FROM contacts").first();
  const span = first.hi - first.lo + 1;
  // append: more messages for the contacts and campaigns already there (bench:screens' next scale).
  if (!append) {
    await db
      .prepare(
        `${counter(campaigns)} INSERT INTO campaigns (name, description, status, created_by, created_at, updated_at)
         SELECT 'Campaign ' || (i + 1), 'Seeded sequence ' || (i + 1), ${pick(["running", "paused", "completed", "draft"], "i")}, ?2, ?1 - ${year} + i * 86400000, ?1 FROM n`,
      )
      .bind(now, userId)
      .run();
  }
  const camps = await db.prepare("SELECT min(id) AS lo FROM campaigns").first();
  if (append) campaigns = (await db.prepare("SELECT count(*) AS n FROM campaigns").first()).n;
  // The messages table's 14 indexes are dropped for the load and built again from their stored definitions: sorting
  // a million rows once per index takes ~5 s, where a million random inserts into each took ~30 s (23 s instead of
  // 53 s for the whole seed). The triggers stay on, so counters, search and conversations are kept as the app would.
  const { results: indexes } = await db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages' AND sql IS NOT NULL")
    .all();
  for (const { name } of indexes) await db.prepare(`DROP INDEX "${name.replaceAll('"', '""')}"`).run();
  try {
    // Messages in chunks of 100,000: a year of traffic, one in five inbound, statuses as a real mix, a campaign on most.
    for (let at = 0; at < messages; at += 100_000) {
      const n = Math.min(100_000, messages - at);
      await db
        .prepare(
          `${counter(n)} INSERT INTO messages (channel, direction, kind, status, contact_id, campaign_id, phone, content, idempotency_key, twilio_sid, is_marketing, created_by, created_at, updated_at)
           SELECT 'sms', CASE WHEN (i + ${at}) % 5 = 0 THEN 'inbound' ELSE 'outbound' END, CASE WHEN (i + ${at}) % 5 = 0 THEN 'inbound' ELSE 'campaign' END,
             CASE WHEN (i + ${at}) % 5 = 0 THEN 'received' ELSE ${pick(STATUSES, `i + ${at} + ${seed}`)} END,
             ${first.lo} + ((i + ${at}) * 7919 + ${seed}) % ${span},
             CASE WHEN (i + ${at}) % 5 = 0 THEN NULL ELSE ${camps.lo} + (i + ${at}) % ${campaigns} END,
             (SELECT phone FROM contacts WHERE id = ${first.lo} + ((i + ${at}) * 7919 + ${seed}) % ${span}),
             replace(${pick(TEXTS, `(i + ${at}) / 3 + ${seed}`)}, '{n}', 'friend ' || ((i + ${at}) % 1000)),
             'seed:${seed}:' || (i + ${at}), CASE WHEN (i + ${at}) % 5 <> 0 AND ${pick(STATUSES, `i + ${at} + ${seed}`)} = 'skipped' THEN NULL ELSE 'SMseed${seed}x' || (i + ${at}) END, 1, ?2, ?1 - ${year} + (i + ${at}) * ${Math.floor(year / messages)}, ?1
           FROM n`,
        )
        .bind(now, userId)
        .run();
    }
  } finally {
    for (const { sql } of indexes) await db.prepare(sql).run();
  }
  // What the app writes as such messages go out, which a seed that inserts them already sent skips (no UPDATE
  // trigger runs): a texted contact is past New (decision 053) and keeps the number it was first texted from
  // (decision 045; `smsSender`, the run's default number, else left unset). Without it every "busy" contact of a
  // year-old database would look like a first text.
  await db
    .prepare(
      `UPDATE contacts SET stage = 'contacted', stage_changed_at = ?1, sms_sender = coalesce(sms_sender, ?2)
       WHERE stage = 'new' AND EXISTS (SELECT 1 FROM messages m WHERE m.contact_id = contacts.id
         AND m.direction = 'outbound' AND m.status IN ('sent', 'delivered'))`,
    )
    .bind(now, smsSender)
    .run();
  // Enrolments waiting for a later step (due in a month), one campaign per contact while they last: the cron tick
  // must not read them until they are due.
  for (let at = 0; at < enrollments; at += 50_000) {
    const n = Math.min(50_000, enrollments - at);
    await db
      .prepare(
        `${counter(n)} INSERT INTO campaign_enrollments (campaign_id, contact_id, status, next_step_number, next_run_at, anchor_at, created_at, updated_at)
         SELECT ${camps.lo} + ((i + ${at}) * 7 + (i + ${at}) / ${span}) % ${campaigns}, ${first.lo} + (i + ${at}) % ${span}, 'active', 2,
           ?1 + 30 * 86400000 + (i + ${at}) * 1000, ?1 - 86400000, ?1, ?1
         FROM n WHERE true ON CONFLICT DO NOTHING`,
      )
      .bind(now)
      .run();
  }
  const counts = await db
    .prepare(
      "SELECT (SELECT count(*) FROM contacts) AS contacts, (SELECT count(*) FROM messages) AS messages, (SELECT count(*) FROM campaigns) AS campaigns, (SELECT count(*) FROM conversations) AS conversations, (SELECT count(*) FROM campaign_enrollments) AS enrollments",
    )
    .first();
  return { ...counts, seconds: (Date.now() - started) / 1000 };
}

/**
 * One contact's thread made longer than a page (the contact page shows the newest 30): `messages` more, alternating
 * inbound and outbound, an hour apart and older than `now`. A seed spreads history evenly (~10 messages a contact at
 * 1M, ~50 at 5M), so without this the contact page would render 10 messages at one scale and 30 at the next, and
 * its growth would measure the page's length, not the history behind it.
 */
export async function lengthenThread(db, { contactId, messages = 40, userId, now = Date.now() }) {
  await db
    .prepare(
      `${counter(messages)} INSERT INTO messages (channel, direction, kind, status, contact_id, phone, content, idempotency_key, twilio_sid, is_marketing, created_by, created_at, updated_at)
       SELECT 'sms', CASE WHEN i % 2 = 0 THEN 'inbound' ELSE 'outbound' END, CASE WHEN i % 2 = 0 THEN 'inbound' ELSE 'individual' END,
         CASE WHEN i % 2 = 0 THEN 'received' ELSE 'delivered' END, ?1, (SELECT phone FROM contacts WHERE id = ?1),
         'Thread message ' || (i + 1) || ': about the panels and the roof', 'thread:' || ?1 || ':' || i, 'SMthread' || ?1 || 'x' || i, 0,
         CASE WHEN i % 2 = 0 THEN NULL ELSE ?2 END, ?3 - (${messages} - i) * 3600000, ?3
       FROM n`,
    )
    .bind(contactId, userId, now)
    .run();
}
