/**
 * Static check that every route module's loader and action call the guard its access folder requires (decision 032):
 * the first folder under app/routes says who may call a route, and so which call its handlers must make themselves.
 * `formAction` counts as the session guard: it calls requireUser first (app/http/form-action.server.ts); so do a contact
 * sub-route's `contactSubrouteLoader` and `contactSubrouteAction` (app/http/contact-guard.server.ts: requireUser, and
 * formAction). It reads the
 * source text, so a new route cannot forget the guard, or sit in a folder whose guard it does not call, and still
 * pass `npm test`.
 */

type Guard = { name: string; call: RegExp } | null;
const SESSION: Guard = {
  name: "requireUser/formAction",
  call: /\bawait\s+requireUser\s*\(|\breturn\s+(?:formAction|contactSubrouteLoader|contactSubrouteAction)\s*\(/,
};

/** Access folder (the first folder under app/routes) → the guard every handler in it calls; null: public. */
export const ACCESS_GUARDS: Record<string, Guard> = {
  // Signed-in screens inside the app layout, and the downloads, streams and fragments they fetch outside it.
  "_app+": SESSION,
  "_session+": SESSION,
  // /api: a session cookie or an API key.
  // v1Route (app/http/api-v1) calls requireApiUser with the /api/v1 operation's scope before it parses.
  "api+": { name: "requireApiUser", call: /\bawait\s+requireApiUser\s*\(|\breturn\s+v1Route\s*\(/ },
  // Provider callbacks: the signature is the authority (the frame also checks PUBLIC_BASE_URL, decision 018).
  "webhooks+": { name: "handleTwilioWebhook (signature check)", call: /\breturn\s+handleTwilioWebhook\s*\(/ },
  // No guard; every handler is named below with its reason.
  "_public+": null,
};

/** Folders whose handlers may be exempted below; in a guarded-by-session or /api folder an exemption is itself a finding. */
const MAY_EXEMPT = new Set(["_public+", "webhooks+"]);

/** Handlers that call no guard on purpose, each with the reason (key: path under app/routes, value: exports). */
export const PUBLIC_HANDLERS: Record<string, { exports: ("loader" | "action")[]; why: string }> = {
  // No session yet: these create it.
  "_public+/login.tsx": { exports: ["loader", "action"], why: "the sign-in screen" },
  "_public+/api.auth.login.ts": { exports: ["loader", "action"], why: "the API's sign-in" },
  // Ends whatever session the cookie names; without one it just goes to /login.
  "_public+/logout.tsx": { exports: ["loader", "action"], why: "sign-out" },
  // CAN-SPAM: unsubscribing needs no login; the signed token in the URL is the authority.
  "_public+/unsubscribe.$token.tsx": { exports: ["loader", "action"], why: "email unsubscribe page" },
  "_public+/unsubscribe.$token.one-click.ts": { exports: ["loader", "action"], why: "RFC 8058 one-click unsubscribe" },
  // A tracked link in a text (decision 068): the signed code names the message whose own link is the destination.
  "_public+/l.$code.ts": { exports: ["loader"], why: "the tracked link's redirect" },
  // Twilio fetches a picture Helio sends as MMS (decision 076): the signature over the message and position is the
  // authority, like a tracked link's.
  "_public+/mms.$token.ts": { exports: ["loader"], why: "a sent picture Twilio fetches" },
  // A homeowner books from a texted link (decision 058): the signed token names the one contact, like unsubscribe.
  "_public+/book.$token.tsx": { exports: ["loader", "action"], why: "the login-free booking page" },
  // Twilio only POSTs; the loaders answer 405 without reading the request.
  "webhooks+/twilio.sms.ts": { exports: ["loader"], why: "405 for GET on the inbound SMS webhook" },
  "webhooks+/twilio.status.ts": { exports: ["loader"], why: "405 for GET on the status callback" },
  // The published API contract (issue 26, decision 038): no data, no secrets; integrators read it before they have a key.
  "_public+/api.v1.openapi[.]json.ts": { exports: ["loader"], why: "the OpenAPI document of /api/v1" },
  "_public+/api.v1.docs.tsx": { exports: ["loader"], why: "the readable page of the same document" },
  // The installable app (decision 049): fixed files with no user data, fetched by the browser before and after sign-in.
  "_public+/sw[.]js.ts": { exports: ["loader"], why: "the service worker script" },
  "_public+/manifest[.]webmanifest.ts": { exports: ["loader"], why: "the web app manifest" },
};

export type GuardFinding = { file: string; handler: "loader" | "action"; problem: string };

/** Source without comments; string and template contents are kept (they cannot hold a call anyway). */
export function stripComments(src: string): string {
  let out = "";
  for (let i = 0; i < src.length; ) {
    const c = src[i];
    if (c === "/" && src[i + 1] === "/") {
      while (i < src.length && src[i] !== "\n") i++;
    } else if (c === "/" && src[i + 1] === "*") {
      const end = src.indexOf("*/", i + 2);
      i = end < 0 ? src.length : end + 2;
    } else if (c === '"' || c === "'" || c === "`") {
      const start = i++;
      while (i < src.length && src[i] !== c) i += src[i] === "\\" ? 2 : 1;
      out += src.slice(start, ++i);
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** From an opening bracket at `open`, the index just past its matching close (strings skipped). */
function matchBracket(src: string, open: number): number {
  const pairs: Record<string, string> = { "(": ")", "{": "}", "[": "]" };
  const stack: string[] = [];
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '"' || c === "'" || c === "`") {
      for (i++; i < src.length && src[i] !== c; ) i += src[i] === "\\" ? 2 : 1;
    } else if (pairs[c]) stack.push(pairs[c]);
    else if (c === stack.at(-1)) {
      stack.pop();
      if (stack.length === 0) return i + 1;
    }
  }
  return src.length;
}

/** The text of an exported loader/action, or a problem when it is not written as a function the check can read. */
function handlerBody(src: string, name: "loader" | "action"): { body: string } | { problem: string } | null {
  const fn = new RegExp(`export\\s+(?:async\\s+)?function\\s+${name}\\s*\\(`).exec(src);
  if (fn) {
    const paramsEnd = matchBracket(src, fn.index + fn[0].length - 1);
    const open = src.indexOf("{", paramsEnd);
    return { body: src.slice(open, matchBracket(src, open)) };
  }
  const arrow = new RegExp(`export\\s+const\\s+${name}\\s*(?::[^=]+)?=\\s*(?:async\\s*)?\\(`).exec(src);
  if (arrow) {
    const paramsEnd = matchBracket(src, arrow.index + arrow[0].length - 1);
    const rest = src.slice(paramsEnd);
    const arrowAt = rest.search(/=>/);
    const after = paramsEnd + arrowAt + 2;
    const open = src.slice(after).search(/\S/) + after;
    return {
      body: src[open] === "{" ? src.slice(open, matchBracket(src, open)) : src.slice(open, src.indexOf("\n", open)),
    };
  }
  if (
    new RegExp(`export\\s+(?:const|let|var)\\s+${name}\\b`).test(src) ||
    new RegExp(`export\\s*\\{[^}]*\\b${name}\\b[^}]*\\}`).test(src)
  ) {
    return {
      problem: `declare ${name} as a function in the route module (a re-export or alias hides whether it calls the guard)`,
    };
  }
  return null;
}

/** The access folder of a route path ("api+/_contacts+/contacts.ts" → "api+"), or null when it sits in none. */
export function accessFolder(file: string): string | null {
  const top = file.split("/")[0];
  return file.includes("/") && top in ACCESS_GUARDS ? top : null;
}

/** Findings for every route module (path under app/routes → source); an empty list means every handler is guarded as its folder requires. */
export function checkRouteGuards(sources: Record<string, string>, publicHandlers = PUBLIC_HANDLERS): GuardFinding[] {
  const findings: GuardFinding[] = [];
  for (const [file, raw] of Object.entries(sources)) {
    const src = stripComments(raw);
    const access = accessFolder(file);
    for (const handler of ["loader", "action"] as const) {
      const found = handlerBody(src, handler);
      if (!found) continue;
      if ("problem" in found) {
        findings.push({ file, handler, problem: found.problem });
        continue;
      }
      if (access === null) {
        findings.push({ file, handler, problem: `not in an access folder (${Object.keys(ACCESS_GUARDS).join(", ")})` });
        continue;
      }
      const guard = ACCESS_GUARDS[access];
      const exempt = publicHandlers[file]?.exports.includes(handler) ?? false;
      if (exempt && !MAY_EXEMPT.has(access))
        findings.push({ file, handler, problem: `${access} routes cannot be public: move it to _public+` });
      else if (guard ? !exempt && !guard.call.test(found.body) : !exempt)
        findings.push({
          file,
          handler,
          problem: guard
            ? `${handler} in ${access} does not call ${guard.name}`
            : `${handler} in ${access} is not on the public list (say why it needs no guard)`,
        });
    }
  }
  for (const file of Object.keys(publicHandlers)) {
    if (!(file in sources))
      findings.push({
        file,
        handler: "loader",
        problem: "on the public list but no such route module (remove the entry)",
      });
  }
  return findings;
}
