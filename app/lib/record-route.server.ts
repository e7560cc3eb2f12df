import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { methodNotAllowed, readJson } from "./api.server";
import { apiRoute } from "./http.server";
import { requireId } from "./ids";

/**
 * One record's /api/<things>/:id endpoint (GET, PUT, DELETE): what each method does once the route's guard has
 * passed and the id is valid. `update` gets the JSON body as sent (domain code validates it, merged with the
 * record, so a partial such as `{ "isActive": false }` works).
 */
export type RecordEndpoint = {
  /** The 404 message for an id that is malformed or unknown. */
  notFound: string;
  get: (args: LoaderFunctionArgs, id: number) => Promise<unknown>;
  update: (args: ActionFunctionArgs, id: number, body: unknown) => Promise<unknown>;
  remove: (args: ActionFunctionArgs, id: number) => Promise<void>;
};

/** GET → 200 with the record. Call after the route's guard. */
export function getRecord(args: LoaderFunctionArgs, endpoint: RecordEndpoint): Promise<Response> {
  return apiRoute(async () => Response.json(await endpoint.get(args, requireId(args.params.id, endpoint.notFound))));
}

/** PUT → 200 with the updated record; DELETE → 204; anything else 405. Call after the route's guard. */
export function changeRecord(args: ActionFunctionArgs, endpoint: RecordEndpoint): Promise<Response> {
  const { method } = args.request;
  if (method !== "PUT" && method !== "DELETE") return Promise.resolve(methodNotAllowed(["GET", "PUT", "DELETE"]));
  return apiRoute(async () => {
    const id = requireId(args.params.id, endpoint.notFound);
    if (method === "DELETE") {
      await endpoint.remove(args, id);
      return new Response(null, { status: 204 });
    }
    return Response.json(await endpoint.update(args, id, await readJson(args.request)));
  });
}
