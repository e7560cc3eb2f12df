// The floor of bench/leads.mjs: a Worker that stores a posted lead and nothing else — parse the JSON body, one
// INSERT of the contact into the same migrated D1 (its triggers included), answer 201 with the id. No key check,
// no consent row, no de-duplication read, no trigger rule, no queue: what any lead webhook on this runtime costs.
export default {
  async fetch(request, env) {
    const lead = await request.json();
    const now = Date.now();
    const row = await env.DB.prepare(
      `INSERT INTO contacts (first_name, last_name, phone, state, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
    )
      .bind(lead.first_name, lead.last_name ?? "", lead.phone, lead.state ?? null, now, now)
      .first();
    return Response.json({ id: row.id }, { status: 201 });
  },
};
