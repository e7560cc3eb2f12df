import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { streamChatMessage } from "~/idea-generator/idea-chat.server";
import { requireUser } from "~/http/guard.server";
import { methodNotAllowed } from "~/http/api.server";
import { apiErrorResponse } from "~/http/http.server";
import { formAction } from "~/http/form-action.server";
import { ideaChatForm } from "~/idea-generator/idea-chat-form";
import type { z } from "zod";

// POST only: 401 without a session, then 405.
export const loader = async (args: LoaderFunctionArgs) => {
  await requireUser(args);
  return methodNotAllowed(["POST"]);
};

/**
 * POST /idea-generator/stream (the Idea Generator's form, sent by fetch once hydrated): the answer as plain text,
 * written to the response as the model writes it; the turn is stored when complete, and the page then reloads the
 * thread. Answers only once the first words exist, so a failure before them is a clean `{ message }` 503 (or the
 * quota's 429) rather than a broken stream. Without JS the same form posts to the page's action instead.
 */
export async function action(args: ActionFunctionArgs) {
  // POST only: the guard first (302), then 405 for other methods.
  const postOnly = () => {
    if (args.request.method !== "POST") throw methodNotAllowed(["POST"]);
  };
  return formAction(args, { schema: ideaChatForm, resource: true, before: postOnly }, (input, { user }) =>
    streamReply(args, user.id, input),
  );
}

async function streamReply(args: ActionFunctionArgs, userId: number, input: z.output<typeof ideaChatForm>) {
  const { context } = args;
  const encoder = new TextEncoder();
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  // The reader hung up (its end of the stream cancelled, or the request aborted): stop the model (issue 23).
  const gone = new AbortController();
  writer.closed.catch(() => gone.abort(new Error("the client disconnected")));
  args.request.signal?.addEventListener("abort", () => gone.abort(new Error("the client disconnected")));
  let opened: (value: unknown) => void = () => {};
  const firstWords = new Promise((resolve) => (opened = resolve));
  const run = streamChatMessage(
    { ...context.ai(), db: context.db },
    userId,
    input,
    context.clock(),
    (text) => {
      opened(true);
      writer.write(encoder.encode(text)).catch(() => gone.abort(new Error("the client disconnected")));
    },
    gone.signal,
  ).then(
    async (answer) => {
      opened(answer ? true : null);
      await writer.close();
    },
    async (err: unknown) => {
      opened(err);
      await writer.abort(err).catch(() => undefined);
    },
  );
  context.cloudflare.ctx?.waitUntil?.(run);
  const first = await firstWords;
  if (first === null) return new Response(null, { status: 204 }); // an empty message is ignored
  if (first !== true) return apiErrorResponse(first);
  return new Response(readable, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
