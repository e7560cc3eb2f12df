import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { z } from "zod";
import type { Db } from "~/db/client.server";
import { methodNotAllowed, pageQuery, pageResponse, parseInput, readJson } from "./api.server";
import { apiRoute } from "./http.server";
import { requireId } from "~/lib/ids";
import { clientIp } from "~/lib/request.server";

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
export function recordRoute<R>(
  args: LoaderFunctionArgs | ActionFunctionArgs,
  endpoint: RecordEndpoint<R>,
): Promise<Response> {
  const { method } = args.request;
  const { db } = args.context;
  const present = endpoint.present ?? ((r: R) => r);
  if (method !== "GET" && method !== "HEAD" && method !== "PUT" && method !== "DELETE")
    return Promise.resolve(methodNotAllowed(["GET", "PUT", "DELETE"]));
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
export function collectionRoute<I, R>(
  args: LoaderFunctionArgs | ActionFunctionArgs,
  endpoint: CollectionEndpoint<I, R>,
): Promise<Response> {
  const { request, context } = args;
  const present = endpoint.present ?? ((r: R) => r);
  if (request.method === "GET" || request.method === "HEAD")
    return apiRoute(async () => Response.json((await endpoint.list(context.db)).map(present)));
  if (request.method !== "POST") return Promise.resolve(methodNotAllowed(["GET", "POST"]));
  return apiRoute(async () =>
    Response.json(
      present(await endpoint.create(context.db, endpoint.parse(await readJson(request)), context.clock())),
      { status: 201 },
    ),
  );
}

/** Who creates a record through a paged collection (for its owner column and the activity log). */
export type CollectionActor = { userId: number; ipAddress: string | null };

/** A keyset-paged /api/<things> collection (campaigns, templates): one page per GET, POST creates one. */
export type PagedCollectionEndpoint<I, R> = {
  /** The largest `limit`, and the noun the 400 for a bad `after` names ("a campaign"). */
  max: number;
  item: string;
  list: (db: Db, page: { limit?: number; after?: number }) => Promise<{ items: R[]; nextCursor: number | null }>;
  parse: (body: unknown) => I;
  create: (db: Db, input: I, actor: CollectionActor, now: Date) => Promise<R>;
};

/**
 * GET → 200 with one page, newest first, `X-Next-Cursor` when there is more; POST → 201 with the new record;
 * anything else 405. Call after the route's guard, with the user it returned.
 */
export function pagedCollectionRoute<I, R>(
  args: LoaderFunctionArgs | ActionFunctionArgs,
  endpoint: PagedCollectionEndpoint<I, R>,
  userId: number,
): Promise<Response> {
  const { request, context } = args;
  if (request.method === "GET" || request.method === "HEAD") {
    return apiRoute(async () => {
      const page = await endpoint.list(context.db, pageQuery(request, endpoint.max, endpoint.item));
      return pageResponse(page.items, page);
    });
  }
  if (request.method !== "POST") return Promise.resolve(methodNotAllowed(["GET", "POST"]));
  return apiRoute(async () => {
    const input = endpoint.parse(await readJson(request));
    return Response.json(
      await endpoint.create(context.db, input, { userId, ipAddress: clientIp(request) }, context.clock()),
      { status: 201 },
    );
  });
}
