import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { setContactStage } from "~/contacts/set-contact-stage.server";
import { contactSubrouteAction, contactSubrouteLoader } from "~/http/contact-guard.server";
import { backField } from "~/http/form-schema";
import { stageField } from "~/http/owner-form";
import { redirectWithToast } from "~/http/toast.server";
import { contactEventHooks } from "~/wiring/contact-event-hooks.server";

// POST /contacts/:id/stage — move one contact to a pipeline stage (decision 053). The contact page posts here; the
// answer goes back to the page that asked.
const schema = z.object({
  stage: stageField,
  back: backField,
});

/** Nothing to show here: a GET goes to the contact's page. */
export function loader(args: LoaderFunctionArgs) {
  return contactSubrouteLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return contactSubrouteAction(args, { schema, refused: "Stage not changed" }, async (input, { id, actor, backTo }) => {
    const { stage, changed } = await setContactStage(
      args.context.db,
      { contactIds: [id], stage: input.stage },
      actor,
      args.context.clock(),
      contactEventHooks(args.context.queue),
    );
    return redirectWithToast(args.context, backTo(input.back), {
      title: changed ? `Moved to ${stage.label}` : `Already ${stage.label}`,
    });
  });
}
