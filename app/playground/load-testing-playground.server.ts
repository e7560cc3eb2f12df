import { eq } from "drizzle-orm";
import { contacts } from "~/db/schema";
import { loadContactPicker, pickerState } from "~/contacts/load-contact-picker.server";
import { listSegmentChoices } from "~/segments/list-segments.server";
import type { ContactViewer } from "~/contacts/contact-scope.server";
import type { Db } from "~/db/client.server";
import { parseId } from "~/lib/ids";
import { pickTemplate } from "~/templates/pick-template.server";
import { renderTemplate, DEFAULT_RENDER_TIME_ZONE } from "~/messaging/render";
import { smsSegments } from "~/messaging/segments";
import { pickContactFields } from "~/contacts/contact-fields";
import { exampleValues } from "~/contacts/variables";

import { PLAYGROUND_TABS, type PlaygroundTab } from "./playground-tabs";

/** Picked ids a broadcast from here takes (the picker carries them in the URL/form: no-JS selection across searches). */
export const MAX_PICKED = 500;

/**
 * Everything the playground shows for one URL: the tab, send type, the picked template, one page of the contact
 * picker (keyset, searchable) with the picked ids kept, and the Variable Testing render. O(one page).
 */
export async function loadTestingPlayground(db: Db, url: URL, now: Date, viewer: ContactViewer) {
  const p = url.searchParams;
  const tab: PlaygroundTab = (PLAYGROUND_TABS as readonly string[]).includes(p.get("tab") ?? "")
    ? (p.get("tab") as PlaygroundTab)
    : "manual";
  const type: "sms" | "email" = p.get("type") === "email" ? "email" : "sms";
  const { templates, picked: template } = await pickTemplate(db, url);
  // The contact picker (the one campaigns use): one page of the search, the ids picked so far.
  const state = pickerState(p);
  const [picker, segmentChoices] = await Promise.all([loadContactPicker(db, state, viewer), listSegmentChoices(db)]);
  const picked = state.picked.slice(0, MAX_PICKED);
  const segmentId = Number(p.get("segmentId"));
  const segments = {
    choices: segmentChoices,
    selected: segmentChoices.some((s) => s.id === segmentId) ? segmentId : null,
  };

  let variables: null | {
    content: string;
    contactId: number | null;
    contactName: string | null;
    text: string;
    unknown: string[];
    missing: string[];
    characters: number;
    segments: number;
    encoding: string;
  } = null;
  const content = p.get("content") ?? "";
  if (tab === "variables" && content.trim()) {
    const contactId = parseId(p.get("contactId"));
    const c = contactId
      ? await db
          .select({
            firstName: contacts.firstName,
            lastName: contacts.lastName,
            phone: contacts.phone,
            email: contacts.email,
            company: contacts.company,
            address: contacts.address,
            city: contacts.city,
            state: contacts.state,
            zipCode: contacts.zipCode,
            timeZone: contacts.timeZone,
          })
          .from(contacts)
          .where(eq(contacts.id, contactId))
          .get()
      : undefined;
    const values = c ? pickContactFields(c) : exampleValues();
    const r = renderTemplate(content.slice(0, 5000), values, {
      now,
      timeZone: c?.timeZone ?? DEFAULT_RENDER_TIME_ZONE,
    });
    const seg = smsSegments(r.text);
    variables = {
      content,
      contactId: c ? contactId : null,
      contactName: c ? `${c.firstName} ${c.lastName}` : null,
      text: r.text,
      unknown: r.unknown,
      missing: r.missing,
      characters: r.text.length,
      segments: seg.segments,
      encoding: seg.encoding,
    };
  }
  // `?draft=<text>` (the Idea Generator's "Use as template") pre-fills the Create Template card.
  const draft = (p.get("draft") ?? "").slice(0, 5000);
  return { tab, type, templates, template, draft, picker, picked, segments, variables };
}
