import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { viewerOf } from "~/contacts/contact-scope.server";
import { setContactStage } from "~/contacts/set-contact-stage.server";
import { contactSubroute } from "~/http/contact-guard.server";
import { requireUser } from "~/http/guard.server";
import { formAction } from "~/http/form-action.server";
import { backField } from "~/http/form-schema";
import { stageField } from "~/http/owner-form";
import { redirectWithToast } from "~/http/toast.server";
import { clientIp } from "~/lib/request.server";
import { contactEventHooks } from "~/wiring/contact-event-hooks.server";

// POST /contacts/:id/stage — move one contact to a pipeline stage (decision 053). The contact page posts here; the
// answer goes back to the page that asked.
const schema = z.object({
  stage: stageField,
  back: backField,
});

/** Nothing to show here: a GET goes to the contact's page. */
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  return redirect(contactSubroute(args).backTo());
}

export async function action(args: ActionFunctionArgs) {
  const { id, backTo, refusal } = contactSubroute(args);
  return formAction(args, { schema, ...refusal("Stage not changed") }, async (input, { user }) => {
    const { stage, changed } = await setContactStage(
      args.context.db,
      { contactIds: [id()], stage: input.stage },
      { ...viewerOf(user), ipAddress: clientIp(args.request) },
      args.context.clock(),
      contactEventHooks(args.context.queue),
    );
    return redirectWithToast(args.context, backTo(input.back), {
      title: changed ? `Moved to ${stage.label}` : `Already ${stage.label}`,
    });
  });
}
