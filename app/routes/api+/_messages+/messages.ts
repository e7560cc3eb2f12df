import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { requireApiUser } from "~/http/guard.server";
import { pageResponse, parseInput, searchParamsOf } from "~/http/api.server";
import { apiRoute } from "~/http/http.server";
import { viewerOf } from "~/contacts/contact-scope.server";
import { zodId } from "~/lib/ids";
import { listMessages } from "~/message-center/list-messages.server";
import { MESSAGE_TABS } from "~/message-center/message-tabs";

const query = z.object({
  q: z.string().max(200).optional(),
  tab: z.enum(MESSAGE_TABS).optional(),
  before: zodId("before must be a positive integer").optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

/**
 * GET /api/messages: newest first, one page of what the key's owner sees (decision 052); `X-Next-Cursor` (pass as
 * `before`) when there is more — a standard user's page may be short and still have one.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireApiUser(args);
  return apiRoute(async () => {
    const { messages, nextCursor } = await listMessages(args.context.db, {
      ...parseInput(query, searchParamsOf(args.request), "Invalid query"),
      viewer: viewerOf(user),
    });
    return pageResponse(messages, { nextCursor: nextCursor ?? null });
  });
}
