import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import type { z } from "zod";
import type { SignedIn } from "~/auth/session.server";
import { AppError } from "~/lib/app-error";
import { methodNotAllowed, parseInput, readJson, searchParamsOf } from "../api.server";
import { requireApiUser } from "../guard.server";
import { apiRoute } from "../http.server";
import type { Operation } from "./operation";

type Out<S> = S extends z.ZodTypeAny ? z.output<S> : undefined;
/** What a handler gets: the declaration's params, query and body, parsed by the declaration's schemas. */
export type V1Input<O extends Operation> = { params: Out<O["params"]>; query: Out<O["query"]>; body: Out<O["body"]> };
export type V1Handler<O extends Operation> = (
  input: V1Input<O>,
  ctx: { args: ActionFunctionArgs; user: SignedIn },
) => Promise<unknown>;

/** One operation of a route module and the domain call that serves it (`served(op, handler)` keeps the types). */
export type Served = { op: Operation; handle: V1Handler<Operation> };
export const served = <O extends Operation>(op: O, handle: V1Handler<O>): Served => ({
  op,
  handle: handle as unknown as V1Handler<Operation>,
});

/**
 * The body of every /api/v1 loader and action: picks the operation by method, guards with its scope (the one spot
 * the API-key scope check plugs in), parses params (404), query and JSON body (400) with the declaration's schemas,
 * runs the one domain call and answers with the declared success status. AppErrors become `{ message }`.
 */
export async function v1Route(args: ActionFunctionArgs, ops: Served[]): Promise<Response> {
  const method = args.request.method.toLowerCase();
  const found = ops.find((s) => s.op.method === method);
  // A method no operation serves needs a valid caller, not a scope: the 405 tells a key nothing it may not know.
  const user = await requireApiUser(args, { scope: found?.op.scope ?? "any" });
  if (!found) return methodNotAllowed(ops.map((s) => s.op.method.toUpperCase()));
  const { op, handle } = found;
  return apiRoute(async () => {
    const input = {
      params: op.params ? parseParams(op.params, args.params) : undefined,
      query: op.query ? parseInput(op.query, searchParamsOf(args.request), "Invalid query") : undefined,
      body:
        op.body && !op.rawBody
          ? parseInput(op.body, (await readJson(args.request)) ?? {}, "Invalid request body")
          : undefined,
    };
    const result = await handle(input as V1Input<Operation>, { args, user });
    // A rawBody route answers its own status (201 / 200 / 422 by outcome) and headers.
    if (result instanceof Response) return result;
    if (op.success.status === 204) return new Response(null, { status: 204 });
    return Response.json(result, { status: op.success.status, headers: { "Cache-Control": "no-store" } });
  });
}

function parseParams(schema: z.AnyZodObject, params: Record<string, string | undefined>) {
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new AppError("not_found", "Not found");
  return parsed.data;
}
