import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { z } from "zod";
import type { Db } from "~/db/client.server";
import type { Actor as BaseActor } from "~/lib/actor";
import type { Role } from "~/db/schema";
import { methodNotAllowed, pageQuery, pageResponse, parseInput, readJson } from "./api.server";
import { apiRoute } from "./http.server";
import { requireId } from "~/lib/ids";
import { clientIp } from "~/lib/request.server";

// The resource routes below share one calling convention, so a route module is its endpoint table and two one-line
// handlers, `xRoute(args, ENDPOINT, await requireApiUser(args))`: the guard runs first (401/403 before 405 or
// 400), and its caller reaches the domain functions as the `Actor` of the activity log and of the rows they create.
type Args = LoaderFunctionArgs | ActionFunctionArgs;
/** What the route's guard returned (requireApiUser's user). */
type Caller = { id: number; role: Role };
/** The domain's Actor plus the caller's role, which bounds the contacts it may touch (decision 048). */
type Actor = BaseActor & { role: Role };
const actorOf = (args: Args, caller: Caller): Actor => ({
  userId: caller.id,
  role: caller.role,
  ipAddress: clientIp(args.request),
});

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
  update: (db: Db, id: number, body: any, now: Date, actor: Actor) => Promise<R>;
  remove: (db: Db, id: number, actor: Actor) => Promise<unknown>;
  /** Parses the PUT body before `update` sees it. */
  body?: z.ZodTypeAny;
  /** The API shape of a record (default: as the domain function returns it). */
  present?: (record: R) => unknown;
};

/**
 * GET → 200 with the record; PUT → 200 with the updated record; DELETE → 204; anything else 405.
 * Call from both the loader and the action, with the caller the route's guard returned.
 */
export function recordRoute<R>(args: Args, endpoint: RecordEndpoint<R>, caller: Caller): Promise<Response> {
  const { method } = args.request;
  const { db } = args.context;
  const present = endpoint.present ?? ((r: R) => r);
  if (method !== "GET" && method !== "HEAD" && method !== "PUT" && method !== "DELETE")
    return Promise.resolve(methodNotAllowed(["GET", "PUT", "DELETE"]));
  return apiRoute(async () => {
    const id = requireId(args.params.id, endpoint.notFound);
    if (method === "DELETE") {
      await endpoint.remove(db, id, actorOf(args, caller));
      return new Response(null, { status: 204 });
    }
    if (method === "PUT") {
      const raw = await readJson(args.request);
      const body = endpoint.body ? parseInput(endpoint.body, raw ?? {}) : raw;
      return Response.json(present(await endpoint.update(db, id, body, args.context.clock(), actorOf(args, caller))));
    }
    return Response.json(present(await endpoint.get(db, id)));
  });
}

/** A bounded /api/<things> collection (GET lists it, POST creates one), described by its domain functions. */
export type CollectionEndpoint<I, R> = {
  list: (db: Db) => Promise<R[]>;
  /** Turns the JSON body into the create input, or throws the 400 AppError that names what is wrong. */
  parse: (body: unknown) => I;
  create: (db: Db, input: I, now: Date, actor: Actor) => Promise<R>;
  present?: (record: R) => unknown;
};

/** Both collection kinds: GET/HEAD → `list`; POST → 201 with what `create` made of the JSON body; else 405. */
function collection(
  args: Args,
  caller: Caller,
  list: () => Promise<Response>,
  create: (body: unknown, actor: Actor, now: Date) => Promise<unknown>,
): Promise<Response> {
  const { request, context } = args;
  if (request.method === "GET" || request.method === "HEAD") return list();
  if (request.method !== "POST") return Promise.resolve(methodNotAllowed(["GET", "POST"]));
  return apiRoute(async () => {
    const created = await create(await readJson(request), actorOf(args, caller), context.clock());
    return Response.json(created, { status: 201 });
  });
}

/** GET → 200 with the list; POST → 201 with the new record; anything else 405. Call with the guard's caller. */
export function collectionRoute<I, R>(
  args: Args,
  endpoint: CollectionEndpoint<I, R>,
  caller: Caller,
): Promise<Response> {
  const { db } = args.context;
  const present = endpoint.present ?? ((r: R) => r);
  return collection(
    args,
    caller,
    () => apiRoute(async () => Response.json((await endpoint.list(db)).map(present))),
    async (body, actor, now) => present(await endpoint.create(db, endpoint.parse(body), now, actor)),
  );
}

/** Who creates a record through a paged collection (for its owner column and the activity log). */
export type CollectionActor = Actor;

/** A keyset-paged /api list: `?limit&after` read by pageQuery (400 past `max`; `item` names the id in the 400). */
export type PagedList<R> = {
  /** The largest `limit`, and the noun the 400 for a bad `after` names ("a campaign"). */
  max: number;
  item: string;
  list: (db: Db, page: { limit?: number; after?: number }) => Promise<{ items: R[]; nextCursor: number | null }>;
};

/** GET of a paged list: 200 with one page, `X-Next-Cursor` when there is more. Call after the route's guard. */
export function pagedListRoute<R>(args: Args, endpoint: PagedList<R>): Promise<Response> {
  return apiRoute(async () => {
    const page = await endpoint.list(args.context.db, pageQuery(args.request, endpoint.max, endpoint.item));
    return pageResponse(page.items, page);
  });
}

/** A keyset-paged /api/<things> collection (campaigns, templates): one page per GET, POST creates one. */
export type PagedCollectionEndpoint<I, R> = PagedList<R> & {
  parse: (body: unknown) => I;
  create: (db: Db, input: I, actor: Actor, now: Date) => Promise<R>;
};

/**
 * GET → 200 with one page, newest first, `X-Next-Cursor` when there is more; POST → 201 with the new record;
 * anything else 405. Call with the caller the route's guard returned.
 */
export function pagedCollectionRoute<I, R>(
  args: Args,
  endpoint: PagedCollectionEndpoint<I, R>,
  caller: Caller,
): Promise<Response> {
  return collection(
    args,
    caller,
    () => pagedListRoute(args, endpoint),
    (body, actor, now) => endpoint.create(args.context.db, endpoint.parse(body), actor, now),
  );
}
