import { AppError } from "~/lib/app-error";
import { formatCount } from "~/lib/format-count";

// Bulk work binds its rows as ONE JSON parameter per statement (json_each), but D1 refuses any bound value over
// 2 MB (SQLITE_TOOBIG, locally as in production), so how many rows fit depends on their bytes, not their count:
// 500 campaign steps of 5,000 characters, or 100 rendered emails of 50,000, are several megabytes. The rows are
// split into JSON arrays of at most D1_VALUE_BUDGET bytes each, one statement per array, all in the same
// db.batch() (one transaction in D1, one round trip) so nothing about atomicity or latency changes.

/** Bytes of one bound JSON value: half of D1's 2 MB limit, so a misjudged row or a lower limit still fits. */
export const D1_VALUE_BUDGET = 1_000_000;

export type JsonChunk<T> = {
  /** The rows of this chunk, in their input order. */
  rows: T[];
  /** `JSON.stringify(rows)`, the value to bind: at most `maxBytes` in UTF-8. */
  json: string;
};

const NON_ASCII = /[\u0080-\uffff]/;
const encoder = new TextEncoder();
/** Strings up to this many UTF-16 units are measured by encoding them into one reused buffer (≤ 3 bytes a unit). */
const SCRATCH_UNITS = 350_000;
let scratch: Uint8Array | undefined;

/** UTF-8 bytes of `s` (what D1 measures); an unpaired surrogate counts as U+FFFD, as TextEncoder writes it. */
export function utf8Length(s: string): number {
  if (!NON_ASCII.test(s)) return s.length;
  // encodeInto a reused buffer is native and allocates nothing: ~9× the speed of the loop below.
  if (s.length <= SCRATCH_UNITS) return encoder.encodeInto(s, (scratch ??= new Uint8Array(SCRATCH_UNITS * 3))).written;
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a surrogate pair: two UTF-16 units, four bytes
      i++;
    } else n += 2;
  }
  return n;
}

/** UTF-8 bytes of `value` as JSON. */
export function jsonBytes(value: unknown): number {
  return utf8Length(JSON.stringify(value) ?? "null");
}

/**
 * Splits `rows` into consecutive chunks whose JSON array stays within `maxBytes` (UTF-8) and `maxRows`, in order,
 * none lost, each with its JSON ready to bind. Lazy: rows are read (from an array or a generator) only as far as the
 * chunk being made, so a caller may let go of each chunk's rows as it goes. A row that
 * alone exceeds `maxBytes` throws a `payload_too_large` AppError (the schemas bound every field so that it cannot).
 */
export function* chunkByBytes<T>(
  rows: Iterable<T>,
  opts: { maxBytes?: number; maxRows?: number } = {},
): Generator<JsonChunk<T>> {
  const maxBytes = opts.maxBytes ?? D1_VALUE_BUDGET;
  const maxRows = opts.maxRows ?? Infinity;
  // The usual case (a batch of SMS, a page of contacts) is one chunk: one JSON.stringify, and no byte count at all
  // when even 3 bytes a UTF-16 unit would fit.
  if (Array.isArray(rows) && rows.length <= maxRows) {
    const json = JSON.stringify(rows);
    if (json.length * 3 <= maxBytes || (json.length <= maxBytes && utf8Length(json) <= maxBytes)) {
      if (rows.length > 0) yield { rows: [...(rows as T[])], json };
      return;
    }
  }
  let parts: string[] = [];
  let chunk: T[] = [];
  let bytes = 2; // "[" and "]"
  for (const row of rows) {
    // An array element JSON cannot represent (undefined, a function) is written as null, as JSON.stringify does.
    const json = JSON.stringify(row) ?? "null";
    const size = utf8Length(json);
    if (size + 2 > maxBytes) {
      throw new AppError(
        "payload_too_large",
        `One row is ${formatCount(size)} bytes, more than the ${formatCount(maxBytes)} bytes one database value may hold`,
      );
    }
    if (parts.length > 0 && (bytes + 1 + size > maxBytes || parts.length >= maxRows)) {
      yield { rows: chunk, json: `[${parts.join(",")}]` };
      parts = [];
      chunk = [];
      bytes = 2;
    }
    bytes += size + (parts.length > 0 ? 1 : 0);
    parts.push(json);
    chunk.push(row);
  }
  if (parts.length > 0) yield { rows: chunk, json: `[${parts.join(",")}]` };
}

/** Every chunk of `rows` at once (see chunkByBytes). */
export function chunksByBytes<T>(
  rows: Iterable<T>,
  opts: { maxBytes?: number; maxRows?: number } = {},
): JsonChunk<T>[] {
  return [...chunkByBytes(rows, opts)];
}
