import type { Db } from "~/db/client.server";

// What a contact's pipeline events tell the features built on them (decision 059): a stage reached, an appointment
// missed. The contacts and appointments code calls these after the change is written; the composition root
// (app/wiring/contact-event-hooks.server.ts) lists what listens — campaigns start the sequences whose rules match.
export type ContactEventContext = { db: Db; now: Date };
export type ContactEventHooks = {
  /** These contacts moved to `stage` just now (by a person, a booking, or a sat appointment). */
  stageChanged: (ctx: ContactEventContext, contactIds: readonly number[], stage: string) => Promise<unknown>;
  /** This contact's appointment was marked no-show just now. */
  appointmentNoShow: (ctx: ContactEventContext, contactId: number) => Promise<unknown>;
  /** These contacts got `tag` just now (normalised, contact-tag.ts). */
  tagAdded: (ctx: ContactEventContext, contactIds: readonly number[], tag: string) => Promise<unknown>;
};

/** Nothing listens (tests of contacts alone). */
export const NO_CONTACT_EVENT_HOOKS: ContactEventHooks = {
  stageChanged: async () => undefined,
  appointmentNoShow: async () => undefined,
  tagAdded: async () => undefined,
};
