import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { addContactTag } from "~/contacts/add-contact-tag.server";
import { normalizeTag, TAG_FORMAT } from "~/contacts/contact-tag";
import { removeContactTag } from "~/contacts/remove-contact-tag.server";
import { contactSubrouteAction, contactSubrouteLoader } from "~/http/contact-guard.server";
import { backField, intentError } from "~/http/form-schema";
import { redirectWithToast } from "~/http/toast.server";
import { contactEventHooks } from "~/wiring/contact-event-hooks.server";

// POST /contacts/:id/tags — tag a contact or take a tag off (issue 28 item 1). The contact page posts here; the answer
// goes back to the page that asked.
const schema = z.discriminatedUnion(
  "intent",
  [
    // Bounded here; its format is the domain's (a refused tag comes back as a toast on the contact's page).
    z.object({ intent: z.literal("add"), tag: z.string().max(200, TAG_FORMAT), back: backField }),
    z.object({ intent: z.literal("remove"), tag: z.string().max(200, TAG_FORMAT), back: backField }),
  ],
  intentError(),
);

/** Nothing to show here: a GET goes to the contact's page. */
export function loader(args: LoaderFunctionArgs) {
  return contactSubrouteLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return contactSubrouteAction(
    args,
    { schema, refused: "Tag not saved", typedFields: true },
    async (input, { id, actor, backTo }) => {
      const now = args.context.clock();
      const tag = normalizeTag(input.tag);
      if (input.intent === "remove") {
        const { removed } = await removeContactTag(args.context.db, { contactId: id, tag }, actor, now);
        return redirectWithToast(args.context, backTo(input.back), {
          title: removed ? `Tag “${tag}” removed` : `No tag “${tag}”`,
        });
      }
      const { added } = await addContactTag(
        args.context.db,
        { contactId: id, tag },
        actor,
        now,
        contactEventHooks(args.context.queue),
      );
      return redirectWithToast(args.context, backTo(input.back), {
        title: added ? `Tagged “${tag}”` : `Already tagged “${tag}”`,
      });
    },
  );
}
