import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { cancelContactImport } from "~/contacts/cancel-contact-import.server";
import { listSearch } from "~/contacts/list-search";
import { startContactImport, type FileOwner, type ImportConsent } from "~/contacts/start-contact-import.server";
import type { DuplicateMode } from "~/db/schema";
import { importEnqueuer } from "~/jobs/enqueue-import.server";
import { redirectWithToast } from "./toast.server";

/**
 * The two intents every staged-import page (Upload CSV, Quick Upload & Send) answers, after its own guard:
 * start the import and come back to the same page (post/redirect/get: the result, or progress while the queue
 * finishes the rest), or cancel it and go back to the contact list with the list's query kept.
 */
export function stagedImportIntents(
  { request, context }: Pick<ActionFunctionArgs, "request" | "context">,
  userId: number,
  id: number,
) {
  const search = listSearch(request);
  return {
    async start(mode: DuplicateMode, owner: FileOwner | null = null, consent: ImportConsent | null = null) {
      await startContactImport(context.db, {
        id,
        userId,
        mode,
        owner,
        consent,
        clock: context.clock,
        enqueue: importEnqueuer(context.queue),
      });
      return redirect(new URL(request.url).pathname + search);
    },
    async cancel(title: string) {
      await cancelContactImport(context.db, id, userId);
      return redirectWithToast(context, `/contacts${search}`, { title });
    },
    back: `/contacts${search}`,
  };
}
