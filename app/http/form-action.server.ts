import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs } from "@remix-run/cloudflare";
import type { z } from "zod";
import { requireUser } from "~/http/guard.server";
import type { SignedIn } from "~/auth/session.server";
import type { FormFailure } from "~/components/form-failure";
import type { Role } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { clientIp } from "~/lib/request.server";
import { bodyTooLarge, MAX_REQUEST_BYTES, readFormDataLimited } from "~/http/read-body.server";

export type { FormFailure } from "~/components/form-failure";
// The schema helpers live in a module the browser bundle can load (route modules build their schemas at top level).

/**
 * What `run` gets besides the parsed input: the signed-in user, the form, and `actor` (who asked and from where,
 * what every audited domain call takes) so each screen does not rebuild it from the request.
 */
export type FormActionContext = {
  user: SignedIn;
  form: FormData;
  actor: { userId: number; ipAddress: string | null };
};

type Spec<S extends z.ZodTypeAny> = {
  /** The input: zod via conform (a `z.discriminatedUnion("intent", …)` for a form with several buttons). */
  schema: S;
  /**
   * conform's coercion (empty → undefined, "on" → true, numbers): for schemas written for it (the contact form).
   * Off by default: the posted strings reach zod as they are, so each schema's own messages ("Name is required")
   * answer an empty field.
   */
  coerce?: boolean;
  /** Only this role may post (standard users get 403, like the screen's loader). */
  role?: Role;
  /**
   * Checks after the guard and before the body is read, that answer with a thrown Response (a route id that cannot
   * exist → 404, a screen that is off in this mode → 403).
   */
  before?: (user: SignedIn) => unknown;
  /** The failure toast's title when the AppError has none (SPEC §8's "Error …"/"Failed to …" texts). */
  title?: string | ((intent: string | undefined) => string | undefined);
  /** Fields never echoed back in `values` (passwords, codes). */
  hide?: readonly string[];
  /** The body cap (the uploads pass theirs; every other screen form gets the screens' 1 MB). */
  limit?: { maxBytes: number; message: string };
  /**
   * Row buttons of a list (start/pause a campaign) have no form to re-render: their failure is a destructive toast
   * on a redirect instead of the reply, so it shows without JS too (a form no button could have sent is still the
   * 400 reply). The only other way a failure is answered.
   */
  /**
   * A resource route (no screen renders action data): the failure is answered as `Response.json` with the same
   * shape and status.
   */
  resource?: boolean;
  failureRedirect?: (failure: FormFailure) => Promise<Response> | Response;
  /**
   * With `failureRedirect`: a form whose fields people type (a tag, a bill) — a refused input is that toast too, so
   * the page that asked shows it without JS, instead of a reply no screen renders.
   */
  typedFields?: boolean;
};

const intentOf = (form: FormData) => {
  const v = form.get("intent");
  return typeof v === "string" && v ? v : undefined;
};

function textValues(form: FormData, hide: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of form) {
    if (typeof v !== "string" || hide.includes(k)) continue;
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** The AppError (or zod's refusal) as the one failure reply. */
export function formFailure(
  err: AppError,
  form: FormData | null,
  spec: Pick<Spec<z.ZodTypeAny>, "title" | "hide"> = {},
  fieldErrors?: Record<string, string[]>,
): FormFailure {
  const intent = form ? intentOf(form) : undefined;
  const fallback = typeof spec.title === "function" ? spec.title(intent) : spec.title;
  return {
    ok: false,
    code: err.code,
    message: err.message,
    title: err.title ?? fallback,
    field: err.field,
    fieldErrors: fieldErrors ?? (err.field ? { [err.field]: [err.message] } : {}),
    invalid: fieldErrors !== undefined,
    intent,
    values: form ? textValues(form, spec.hide) : {},
  };
}

/**
 * The screens' counterpart of apiRoute (app/lib/http.server.ts) for an action that takes a form: guard (session,
 * role) → the body read up to its cap → conform + zod → `run` (one domain call; its Response or data is the
 * reply) → a refused input or an AppError as the one FormFailure reply with the error's status. A thrown Response
 * (a redirect, a 404) passes through; anything else is rethrown to the error boundary (a logged 500).
 */
export async function formAction<S extends z.ZodTypeAny, R>(
  args: ActionFunctionArgs,
  spec: Spec<S>,
  run: (input: z.output<S>, ctx: FormActionContext) => Promise<R> | R,
) {
  const user = await requireUser(args, { role: spec.role });
  await spec.before?.(user);
  return parseAndRun(args, spec, (input, form) =>
    run(input, { user, form, actor: { userId: user.id, ipAddress: clientIp(args.request) } }),
  );
}

/**
 * The same for the few forms posted without a session, whose authority is a signed link the route checks itself
 * (the booking page, decision 058): no guard, the same capped read, conform + zod parse and failure reply.
 */
export async function publicFormAction<S extends z.ZodTypeAny, R>(
  args: ActionFunctionArgs,
  spec: Omit<Spec<S>, "role" | "before">,
  run: (input: z.output<S>, ctx: { form: FormData; ipAddress: string | null }) => Promise<R> | R,
) {
  return parseAndRun(args, spec, (input, form) => run(input, { form, ipAddress: clientIp(args.request) }));
}

/** The body read up to its cap → conform + zod → `run` → a refusal or an AppError as the one failure reply. */
async function parseAndRun<S extends z.ZodTypeAny, R>(
  args: ActionFunctionArgs,
  spec: Omit<Spec<S>, "role" | "before">,
  run: (input: z.output<S>, form: FormData) => Promise<R> | R,
) {
  let form: FormData | null = null;
  let parsed = false;
  try {
    form = await readFormDataLimited(
      args.request,
      spec.limit?.maxBytes ?? MAX_REQUEST_BYTES,
      spec.limit?.message ?? bodyTooLarge(MAX_REQUEST_BYTES),
    );
    const submission = parseWithZod(form, { schema: spec.schema, disableAutoCoercion: !spec.coerce });
    if (submission.status !== "success") {
      const fieldErrors = Object.fromEntries(
        Object.entries(submission.error ?? {}).filter((e): e is [string, string[]] => !!e[1]?.length),
      );
      const [field, messages] = Object.entries(fieldErrors)[0] ?? ["", ["Invalid form"]];
      throw Object.assign(new AppError("validation", messages[0], { field: field || undefined }), { fieldErrors });
    }
    parsed = true;
    return await run(submission.value as z.output<S>, form);
  } catch (err) {
    if (err instanceof Response || !(err instanceof AppError)) throw err;
    const failure = formFailure(
      err,
      form,
      spec,
      (err as AppError & { fieldErrors?: Record<string, string[]> }).fieldErrors,
    );
    if (spec.failureRedirect && (parsed || spec.typedFields)) return (await spec.failureRedirect(failure)) as never;
    if (spec.resource) return Response.json(failure, { status: err.status }) as never;
    return data(failure, { status: err.status });
  }
}
