import { data, redirect, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { requireUser } from "~/auth/guard.server";
import { DUPLICATE_MODES, type ContactImport } from "~/db/schema";
import type { ImportContactsJob } from "~/jobs/jobs";
import { redirectWithToast } from "~/toast/toast.server";
import { listSearch } from "./contact-form-reply.server";
import { ContactError } from "./contact-row.server";
import {
  cancelContactImport,
  getContactImport,
  importErrorPreview,
  importResultSummary,
  previewRows,
  resumeIfStalled,
  startContactImport,
} from "./import-contact-chunk.server";
import { assessPhone } from "./phone";

function importId(raw: string | undefined): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Response("Import not found", { status: 404, statusText: "Not Found" });
  return id;
}

function enqueuer(context: AppLoadContext) {
  return async (id: number) => {
    await context.cloudflare.env.JOBS.send({ v: 1, type: "import-contacts", importId: id } satisfies ImportContactsJob);
  };
}

async function loadImport(context: AppLoadContext, id: number, userId: number): Promise<ContactImport> {
  try {
    return await getContactImport(context.db, id, userId);
  } catch (err) {
    // Someone else's import is as invisible as a missing one.
    if (err instanceof ContactError && err.status === 404) throw new Response(err.message, { status: 404, statusText: "Not Found" });
    throw err;
  }
}

/** The preview / progress / result page of one staged import. */
export async function loadImportPage(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  const { context } = args;
  const imp = await loadImport(context, importId(args.params.id), user.id);
  await resumeIfStalled(context.db, imp, context.clock(), enqueuer(context));
  const rows = imp.status === "staged" ? await previewRows(context.db, imp.id) : [];
  return {
    import: {
      id: imp.id,
      fileName: imp.fileName,
      status: imp.status,
      duplicateMode: imp.duplicateMode,
      totalRows: imp.totalRows,
      validRows: imp.validRows,
      rejectedRows: imp.rejectedRows,
      fileDuplicates: imp.fileDuplicates,
      processedRows: imp.processedRows,
      errorCount: imp.errorCount,
      failureMessage: imp.failureMessage,
    },
    rows: rows.map((r) => {
      const a = assessPhone(r.phone);
      return { ...r, unsendableReason: a.sendable ? null : a.reason };
    }),
    errors: importErrorPreview(imp),
    summary: imp.status === "completed" ? importResultSummary(imp) : null,
  };
}

const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("confirm"), duplicateMode: z.enum(DUPLICATE_MODES).catch("skip") }),
  z.object({ intent: z.literal("cancel") }),
  z.object({ intent: z.literal("done") }),
]);

export async function importPageAction(args: ActionFunctionArgs) {
  const user = await requireUser(args);
  const { request, context } = args;
  const id = importId(args.params.id);
  const parsed = intentSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: "Unknown action" }, { status: 400 });
  const back = `/contacts${listSearch(request)}`;
  try {
    switch (parsed.data.intent) {
      case "confirm":
        await startContactImport(context.db, { id, userId: user.id, mode: parsed.data.duplicateMode, now: context.clock, enqueue: enqueuer(context) });
        // Post/redirect/get: the page then shows the result, or progress while the queue finishes the rest.
        return redirect(new URL(request.url).pathname + listSearch(request));
      case "cancel":
        await cancelContactImport(context.db, id, user.id);
        return redirectWithToast(context, back, { title: "Import cancelled" });
      case "done": {
        const imp = await loadImport(context, id, user.id);
        return redirectWithToast(
          context,
          back,
          imp.status === "completed"
            ? { title: "Contacts imported", description: importResultSummary(imp) }
            : { title: "Import in progress", description: "The import continues in the background." },
        );
      }
    }
  } catch (err) {
    if (err instanceof ContactError) return data({ error: err.message }, { status: err.status });
    throw err;
  }
}
