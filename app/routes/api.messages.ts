import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { requireApiUser } from "~/auth/guard.server";
import { apiError } from "~/lib/request.server";
import { listMessages } from "~/messaging/list-messages.server";
import { MESSAGE_TABS } from "~/messaging/message-tabs";

const query = z.object({
  q: z.string().max(200).optional(),
  tab: z.enum(MESSAGE_TABS).optional(),
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

/** GET /api/messages: newest first, one page; `X-Next-Cursor` (pass as `before`) when there is more. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  const parsed = query.safeParse(Object.fromEntries(new URL(args.request.url).searchParams));
  if (!parsed.success) return apiError(400, parsed.error.issues[0]?.message ?? "Invalid query");
  const { messages, nextCursor } = await listMessages(args.context.db, parsed.data);
  return Response.json(messages, { headers: nextCursor ? { "X-Next-Cursor": String(nextCursor) } : {} });
}
