import { Column, is, sql, type AnyColumn, type DriverValueDecoder, type SQL } from "drizzle-orm";
import { chunk } from "./client.server";

/** D1 allows at most 32 arguments per SQL function call (developers.cloudflare.com/d1/platform/limits). */
export const MAX_FUNCTION_ARGS = 32;

/** A column, or a scalar expression carrying its decoder (`sql<T>`…``.mapWith(…)`); never one that yields JSON. */
type Packable = AnyColumn | SQL<unknown>;

/** The decoded object: each column's own type (null when the column may be), each expression's. */
export type Packed<F extends Record<string, Packable>> = {
  [K in keyof F]: F[K] extends AnyColumn
    ? F[K]["_"]["notNull"] extends true
      ? F[K]["_"]["data"]
      : F[K]["_"]["data"] | null
    : F[K] extends SQL<infer T>
      ? T
      : never;
};

/** A LEFT JOIN's column: decoded as the column, typed as possibly null (the joined row may be missing). */
export const orNull = <C extends AnyColumn>(column: C) => sql<C["_"]["data"] | null>`${column}`.mapWith(column);

/**
 * Several columns selected as one value: `json_array(…)` in SQL, decoded back into an object by each column's own
 * decoder. Why: D1's batch() turns every value of every row into an object property inside the runtime, and drizzle
 * then decodes each value again after an `is()` walk of the field's prototype chain — about 1 µs a value. For a read
 * of many columns over many rows on a hot path (the send consumer reads ~50 columns of 100 messages per batch) that
 * was the largest cost of a batch after the provider calls; JSON.parse of one string per row is a fraction of it
 * (decision 080). Nested into groups of MAX_FUNCTION_ARGS, so at most 1,024 values.
 * A LEFT JOIN's columns go in through `orNull`.
 */
export function packedColumns<F extends Record<string, Packable>>(
  /** The value's column name in the result (else D1 names it by the whole expression). */
  name: string,
  fields: F,
) {
  const keys = Object.keys(fields);
  if (keys.length === 0 || keys.length > MAX_FUNCTION_ARGS * MAX_FUNCTION_ARGS)
    throw new Error(`packedColumns takes 1–${MAX_FUNCTION_ARGS ** 2} values, got ${keys.length}`);
  // Each value's decoder: the column's own, or what an expression's `.mapWith` set (drizzle keeps it internal); null
  // where it is the base column's identity (text, plain integers), so those values are taken as they come.
  const decoders = keys.map((k) => {
    const f = fields[k];
    const decoder = is(f, Column) ? f : (f as unknown as { decoder: DriverValueDecoder<unknown, unknown> }).decoder;
    return decoder.mapFromDriverValue === Column.prototype.mapFromDriverValue ? null : decoder;
  });
  const groups = chunk(
    keys.map((k) => sql`${fields[k]}`),
    MAX_FUNCTION_ARGS,
  ).map((g) => sql`json_array(${sql.join(g, sql`, `)})`);
  const nested = groups.length > 1;
  const expression = nested ? sql`json_array(${sql.join(groups, sql`, `)})` : groups[0];
  // Each row starts as a copy of this one: filling keys it already has keeps V8's fast object layout, where adding
  // fifty keys one by one can turn the object into a dictionary that every later `row.x` pays for.
  const shape = Object.fromEntries(keys.map((k) => [k, null]));
  return expression
    .mapWith((text: string): Packed<F> => {
      const parsed = JSON.parse(text) as unknown[];
      const values = nested ? (parsed as unknown[][]).flat() : parsed;
      const out: Record<string, unknown> = { ...shape };
      for (let i = 0; i < keys.length; i++) {
        const v = values[i];
        const decoder = decoders[i];
        out[keys[i]] = v === null || decoder === null ? v : decoder.mapFromDriverValue(v);
      }
      return out as Packed<F>;
    })
    .as(name);
}
