import { z } from "zod";
import { MAX_OWNER_CONTACTS } from "~/contacts/owner-limits";
import { asList } from "./form-schema";
import { zodId } from "~/lib/ids";

// The "Set owner" form's schema, shared by the screens that set an owner (not a .server module: route modules build
// it at module level): contact edit, bulk on /contacts, reassign on a conversation (decision 044).
/** The owner select: "" = no owner, else a user id. */
export const ownerField = z.preprocess(
  (v) => (v === "" || v === undefined ? null : v),
  zodId("Choose a user").nullable(),
);

export const setOwnerForm = z.object({
  contactIds: asList(
    z
      .array(zodId("Choose contacts"))
      .min(1, "Choose at least one contact")
      .max(MAX_OWNER_CONTACTS, `Choose at most ${MAX_OWNER_CONTACTS} contacts at a time`),
  ),
  ownerUserId: ownerField,
  note: z.string().trim().max(500, "Keep the note under 500 characters").optional(),
});

/** A pipeline stage's key (decision 053): the contact page's Stage card and the list's bulk "Set stage". */
export const stageField = z.string({ required_error: "Choose a stage" }).trim().min(1, "Choose a stage").max(40);
