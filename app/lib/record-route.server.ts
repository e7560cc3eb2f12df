import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { z } from "zod";
import type { Db } from "~/db/client.server";
import { methodNotAllowed, parseInput, readJson } from "./api.server";
import { apiRoute } from "./http.server";
import { requireId } from "./ids";

/**
 * One record's /api/<things>/:id endpoint (GET, PUT, DELETE), described by its domain functions — which share the
 * shape `(db, id[, body, now])` so a route passes them as they are. `update` gets the JSON body as sent unless
 * `body` names a schema (domain code validates it merged with the record, so a partial such as
 * `{ "isActive": false }` works).
 */
export type RecordEndpoint<R = unknown> = {
  /** The 404 message for an id that is malformed or unknown. */
  notFound: string;
  get: (db: Db, id: number) => Promise<R>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each domain function narrows the body itself
  update: (db: Db, id: number, body: any, now: Date) => Promise<R>;
  remove: (db: Db, id: number) => Promise<unknown>;
  /** Parses the PUT body before `update` sees it. */
  body?: z.ZodTypeAny;
  /** The API shape of a record (default: as the domain function returns it). */
  present?: (record: R) => unknown;
};

/**
 * GET → 200 with the record; PUT → 200 with the updated record; DELETE → 204; anything else 405.
 * Call from both the loader and the action, after the route's guard.
 */
export function recordRoute<R>(args: LoaderFunctionArgs | ActionFunctionArgs, endpoint: RecordEndpoint<R>): Promise<Response> {
  const { method } = args.request;
  const { db } = args.context;
  const present = endpoint.present ?? ((r: R) => r);
  if (method !== "GET" && method !== "HEAD" && method !== "PUT" && method !== "DELETE") return Promise.resolve(methodNotAllowed(["GET", "PUT", "DELETE"]));
  return apiRoute(async () => {
    const id = requireId(args.params.id, endpoint.notFound);
    if (method === "DELETE") {
      await endpoint.remove(db, id);
      return new Response(null, { status: 204 });
    }
    if (method === "PUT") {
      const raw = await readJson(args.request);
      const body = endpoint.body ? parseInput(endpoint.body, raw ?? {}) : raw;
      return Response.json(present(await endpoint.update(db, id, body, args.context.clock())));
    }
    return Response.json(present(await endpoint.get(db, id)));
  });
}

/** A bounded /api/<things> collection (GET lists it, POST creates one), described by its domain functions. */
export type CollectionEndpoint<I, R> = {
  list: (db: Db) => Promise<R[]>;
  /** Turns the JSON body into the create input, or throws the 400 AppError that names what is wrong. */
  parse: (body: unknown) => I;
  create: (db: Db, input: I, now: Date) => Promise<R>;
  present?: (record: R) => unknown;
};

/** GET → 200 with the list; POST → 201 with the new record; anything else 405. Call after the route's guard. */
export function collectionRoute<I, R>(args: LoaderFunctionArgs | ActionFunctionArgs, endpoint: CollectionEndpoint<I, R>): Promise<Response> {
  const { request, context } = args;
  const present = endpoint.present ?? ((r: R) => r);
  if (request.method === "GET" || request.method === "HEAD") return apiRoute(async () => Response.json((await endpoint.list(context.db)).map(present)));
  if (request.method !== "POST") return Promise.resolve(methodNotAllowed(["GET", "POST"]));
  return apiRoute(async () => Response.json(present(await endpoint.create(context.db, endpoint.parse(await readJson(request)), context.clock())), { status: 201 }));
}
