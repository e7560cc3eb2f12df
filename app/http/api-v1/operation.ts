import type { z } from "zod";

/**
 * The scopes an API key carries (issue 26; h5-leads owns the keys). A session caller has every scope its role
 * allows; the guard checks `scope` for key callers (requireApiUser's `scope` option).
 */
import { API_KEY_SCOPES, type ApiKeyScope } from "~/auth/api-key-scopes";

export const API_SCOPES = API_KEY_SCOPES;
export type ApiScope = ApiKeyScope;

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/**
 * One /api/v1 operation, declared once (decision 038): the route module parses with these schemas and the
 * OpenAPI document is generated from them, so the docs cannot say something the route does not enforce.
 */
export type Operation = {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI form: `/api/v1/contacts/{id}`. */
  path: string;
  /** The route module under app/routes that serves it (checked by api-v1.node.test.ts). */
  route: string;
  tag: "Contacts" | "Messages" | "Campaigns" | "Enrolments" | "Leads" | "Webhooks";
  summary: string;
  description?: string;
  scope: ApiScope;
  /** Path parameters (`{id}` → `id`); an id that fails them is a 404, as on /api. */
  params?: z.AnyZodObject;
  /** Query string, as strings (use z.coerce for numbers). A refusal is a 400 `{ message }`. */
  query?: z.AnyZodObject;
  /** JSON body. A refusal is a 400 `{ message }`. */
  body?: z.ZodTypeAny;
  /**
   * The route reads the body itself (other content types, a size limit, a per-item report): `body` then only
   * documents it and v1Route does not parse it; the handler may answer its own Response (a status that depends on
   * the outcome).
   */
  rawBody?: true;
  success: { status: 200 | 201 | 202 | 204; description: string; schema?: z.ZodTypeAny };
  /** The error statuses this operation documents besides 400 (body/query) and 401/403 (guard). */
  errors?: Partial<Record<404 | 409 | 413 | 415 | 422 | 429 | 503, string>>;
  /** A body (and query) the route accepts, shown in the docs and replayed by the tests. */
  example?: { body?: unknown; query?: Record<string, string> };
};

/** Keeps the literal types of a declaration (its schemas type the handler's input). */
export const defineOperation = <const O extends Operation>(op: O): O => op;
