import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { setContactOwner } from "~/contacts/set-contact-owner.server";
import { ownerField } from "~/http/owner-form";
import { redirectWithToast } from "~/http/toast.server";
import { backField } from "~/http/form-schema";
import { contactSubrouteAction, contactSubrouteLoader } from "~/http/contact-guard.server";
import { seesAllContacts, viewerOf } from "~/contacts/contact-scope.server";

// POST /contacts/:id/owner — set, reassign or clear one contact's owner, with an optional note (decision 044). The
// contact page (its conversation) and the edit dialog post here; the answer goes back to the page that asked.
const schema = z.object({
  ownerUserId: ownerField,
  note: z.string().trim().max(500, "Keep the note under 500 characters").optional(),
  // Only a path on this site ("/contacts/12"), never another origin.
  back: backField,
});

/** Nothing to show here: a GET goes to the contact's page. */
export function loader(args: LoaderFunctionArgs) {
  return contactSubrouteLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return contactSubrouteAction(
    args,
    { schema, refused: "Owner not changed" },
    async (input, { id, user, actor, backTo }) => {
      const { changed } = await setContactOwner(
        args.context.db,
        { contactIds: [id], ownerUserId: input.ownerUserId, note: input.note },
        actor,
        args.context.clock(),
      );
      // A rep who handed the contact to a teammate no longer sees it (decision 048): back to their own list.
      const handedAway =
        changed > 0 &&
        input.ownerUserId !== null &&
        input.ownerUserId !== user.id &&
        !(await seesAllContacts(viewerOf(user), args.context.db));
      return redirectWithToast(args.context, handedAway ? "/contacts" : backTo(input.back), {
        title: changed ? (input.ownerUserId === null ? "Owner cleared" : "Owner set") : "Owner not changed",
        description: changed ? undefined : "You can change the owner only of your own or unowned contacts.",
      });
    },
  );
}
