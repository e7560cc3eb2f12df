import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import type { Role } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { apiErrorResponse } from "./http.server";
import { findSessionUser, readSessionToken, type SessionUser, type SignedIn } from "~/auth/session.server";
import { authenticateApiKey, bearerToken, type KeyCaller } from "~/auth/authenticate-api-key.server";
import { API_KEY_RATE_PER_MINUTE, scopeFor, type ApiKeyScope } from "~/auth/api-key-scopes";
import { hitCap } from "~/caps/hit-cap.server";
import { clientIp } from "~/lib/request.server";

type Args = { request: Request; context: AppLoadContext };

// One lookup per page request even when root, layout and route loaders all ask. Keyed by the load context, which
// Remix hands every loader of one request (each gets its own copy of the Request). Only for reads: an action may sign
// in, sign out or change the password before the loaders of the same request run, and they must see the change.
const cache = new WeakMap<AppLoadContext, Promise<SignedIn | null>>();
const READS = new Set(["GET", "HEAD"]);

export function getOptionalUser({ request, context }: Args): Promise<SignedIn | null> {
  const lookup = () => findSessionUser(context.db, readSessionToken(request), context.clock());
  if (!READS.has(request.method)) return lookup();
  let p = cache.get(context);
  if (!p) {
    p = lookup();
    cache.set(context, p);
  }
  return p;
}

export const CHANGE_PASSWORD_PATH = "/account/password";
export const TWO_FACTOR_PATH = "/account/two-factor";
const pathOf = (request: Request) => new URL(request.url).pathname;

/**
 * Page loaders/actions: unauthenticated → the login screen; a one-time password not yet replaced → the change
 * password screen (every loader and action, so no form posts around it); a superuser without two-factor while the
 * organisation requires it → the two-factor set-up screen; wrong role → 403.
 */
export async function requireUser(args: Args, opts: { role?: Role } = {}): Promise<SignedIn> {
  const user = await getOptionalUser(args);
  if (!user) throw redirect("/login");
  if (user.mustChangePassword && pathOf(args.request) !== CHANGE_PASSWORD_PATH) throw redirect(CHANGE_PASSWORD_PATH);
  if (user.mustEnrolTwoFactor && pathOf(args.request) !== TWO_FACTOR_PATH) throw redirect(TWO_FACTOR_PATH);
  if (opts.role && user.role !== opts.role) throw new Response("Forbidden", { status: 403, statusText: "Forbidden" });
  return user;
}

const API_BEFORE_PASSWORD_CHANGE = new Set(["/api/auth/me", "/api/auth/logout"]);

const keyCache = new WeakMap<Request, Promise<KeyCaller>>();

/**
 * A Bearer request's caller (decision 035): the key's owner, checked once per request — unknown, revoked or expired
 * key or an inactive owner → 401; then the key's rate limit (API_KEY_RATE_PER_MINUTE, the caps' counter table,
 * channel `apiKey`) → 429 with Retry-After. The cookie, if any, is ignored: a Bearer request is the key's.
 */
function keyCaller({ request, context }: Args, secret: string): Promise<KeyCaller> {
  let p = keyCache.get(request);
  if (!p) {
    p = (async () => {
      const now = context.clock();
      const url = new URL(request.url);
      const caller = await authenticateApiKey(
        context.db,
        secret,
        { ipAddress: clientIp(request), method: request.method, path: url.pathname },
        now,
      );
      const cap = await hitCap(
        context.db,
        "apiKey",
        String(caller.apiKey.id),
        { windowMs: 60_000, limit: API_KEY_RATE_PER_MINUTE },
        now,
      );
      if (!cap.allowed)
        throw new AppError("rate_limited", `Rate limit of ${API_KEY_RATE_PER_MINUTE} requests a minute reached`, {
          retryAfter: (cap.resetAt - now.getTime()) / 1000,
        });
      return caller;
    })();
    keyCache.set(request, p);
  }
  return p;
}

/** The key a Bearer /api request was authorised by (null for a cookie session): the lead webhook keys its replays by it. */
export async function apiKeyOf(args: Args): Promise<KeyCaller["apiKey"] | null> {
  const secret = bearerToken(args.request);
  return secret ? (await keyCaller(args, secret)).apiKey : null;
}

/**
 * /api routes: 401/403 as `{ message }` JSON. A session cookie, or `Authorization: Bearer <API key>` (decision 035):
 * the key acts as its owner with the same role checks, and only where its scopes allow (`scope`, else the default
 * for the method and path, `scopeFor`): another scope → 403, a path no key may use → 403. `scope: "any"` takes any
 * valid key (an answer that reveals nothing, such as /api/v1's 405 for a method no operation serves).
 */
export async function requireApiUser(
  args: Args,
  opts: { role?: Role; scope?: ApiKeyScope | "any" } = {},
): Promise<SignedIn> {
  const secret = bearerToken(args.request);
  if (secret !== null) {
    let caller: KeyCaller;
    try {
      caller = await keyCaller(args, secret);
    } catch (err) {
      throw apiErrorResponse(err);
    }
    const needed = opts.scope ?? scopeFor(args.request.method, pathOf(args.request));
    if (needed === null)
      throw apiErrorResponse(new AppError("forbidden", "API keys cannot be used here; sign in instead"));
    if (needed !== "any" && !caller.apiKey.scopes.includes(needed))
      throw apiErrorResponse(new AppError("forbidden", `This API key lacks the "${needed}" scope`));
    if (caller.mustChangePassword)
      throw apiErrorResponse(new AppError("forbidden", "The key's owner must change their one-time password first"));
    if (opts.role && caller.role !== opts.role) throw apiErrorResponse(new AppError("forbidden", "Forbidden"));
    return caller;
  }
  const user = await getOptionalUser(args);
  if (!user) throw apiErrorResponse(new AppError("unauthorized", "Unauthorized"));
  if (user.mustChangePassword && !API_BEFORE_PASSWORD_CHANGE.has(pathOf(args.request))) {
    throw apiErrorResponse(new AppError("forbidden", "Change your one-time password before using the API"));
  }
  if (user.mustEnrolTwoFactor && !API_BEFORE_PASSWORD_CHANGE.has(pathOf(args.request))) {
    throw apiErrorResponse(
      new AppError("forbidden", "Set up two-factor authentication (Account screen) before using the API"),
    );
  }
  if (opts.role && user.role !== opts.role) throw apiErrorResponse(new AppError("forbidden", "Forbidden"));
  return user;
}

export function publicUser(u: SessionUser) {
  return { id: u.id, email: u.email, firstName: u.firstName, lastName: u.lastName, role: u.role };
}
