/**
 * D1 reports a constraint failure only as text ("UNIQUE constraint failed: contacts.phone"), raw from a batch or
 * wrapped by drizzle (the D1 message then sits in `cause`). This is the one place that reads that text.
 */
export function isUniqueViolation(err: unknown, column: `${string}.${string}`): boolean {
  const needle = `UNIQUE constraint failed: ${column}`;
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (String((e as Error).message ?? e).includes(needle)) return true;
  }
  return false;
}

/** The same for a unique index on an expression, which SQLite names instead of a column ("index 'segments_name_uq'"). */
export function isUniqueIndexViolation(err: unknown, index: string): boolean {
  const needle = `UNIQUE constraint failed: index '${index}'`;
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (String((e as Error).message ?? e).includes(needle)) return true;
  }
  return false;
}
