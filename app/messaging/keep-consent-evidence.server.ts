// The consent evidence rule lives with the messages it points at: the archive keeps a copy before they leave D1, and
// the evidence export (app/analytics/export-consent-evidence.server.ts) reads the same message by the same rule.

/** The evidence of consent event `e`: the contact's latest inbound message at that moment (5 s of clock skew allowed). */
export const EVIDENCE_MESSAGE_ID = `(SELECT id FROM messages WHERE contact_id = e.contact_id AND direction = 'inbound' AND created_at <= e.at + 5000 ORDER BY id DESC LIMIT 1)`;

/**
 * Before the messages in `idsJson` (a JSON array of ids) are archived (app/messaging/archive-old-messages.server.ts),
 * copies onto each opt-out and opt-in event the evidence message the export would show, when it is one of them, so the
 * export shows the same text after they leave D1. Reads only the events of the contacts those inbound messages came from.
 */
export function keepConsentEvidence(d1: D1Database, idsJson: string): D1PreparedStatement {
  // raw-sql: update-from
  return d1
    .prepare(
      `UPDATE compliance_events SET inbound_content = m.content, inbound_at = m.created_at, inbound_to = m.from_address
       FROM (SELECT e.id AS eid, ${EVIDENCE_MESSAGE_ID} AS mid FROM compliance_events e
             WHERE e.contact_id IN (SELECT contact_id FROM messages WHERE id IN (SELECT value FROM json_each(?1)) AND direction = 'inbound')
               AND e.kind IN ('opt_out', 'opt_in') AND e.inbound_at IS NULL) AS x
       JOIN messages m ON m.id = x.mid
       WHERE compliance_events.id = x.eid AND x.mid IN (SELECT value FROM json_each(?1))`,
    )
    .bind(idsJson);
}
