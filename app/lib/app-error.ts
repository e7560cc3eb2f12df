/**
 * The one error type of Helio's domain code. Domain modules throw it; route modules map it to HTTP with
 * `apiErrorResponse` (/api: `{ message }` JSON) or `formAction` (app/http/form-action.server.ts; screens: the one FormFailure reply + toast). Nothing
 * matches on message strings: callers branch on `code`.
 */
export type AppErrorCode =
  | "validation"
  | "not_found"
  | "conflict"
  | "forbidden"
  | "unauthorized"
  | "rate_limited"
  | "unavailable"
  | "payload_too_large"
  | "unsupported_media_type";

export const STATUS_BY_CODE: Record<AppErrorCode, number> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
};

export type AppErrorOptions = {
  /** Which form field the message belongs to (screens show it beside the field). */
  field?: string;
  /** Seconds a client should wait (rate_limited, unavailable) → Retry-After. */
  retryAfter?: number;
  /** A short toast title for screens, e.g. "Error creating campaign" (SPEC §8). */
  title?: string;
  /** Extra, safe-to-show data for /api bodies (e.g. `{ missing: { promoCode: 3 } }`). */
  details?: Record<string, unknown>;
  cause?: unknown;
};

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly field?: string;
  readonly retryAfter?: number;
  readonly title?: string;
  readonly details?: Record<string, unknown>;

  constructor(code: AppErrorCode, message: string, opts: AppErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "AppError";
    this.code = code;
    this.field = opts.field;
    this.retryAfter = opts.retryAfter;
    this.title = opts.title;
    this.details = opts.details;
  }

  get status(): number {
    return STATUS_BY_CODE[this.code];
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

export const notFound = (what = "Not found") => new AppError("not_found", what);
