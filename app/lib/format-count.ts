// `n.toLocaleString("en-US")` builds a new Intl.NumberFormat on every call (tens of microseconds in workerd); a page of
// campaign cards or table rows made hundreds of them per render. One formatter, made when the module loads.
const COUNT = new Intl.NumberFormat("en-US");

/** A whole count with thousands separators, as people read it: 12,345. */
export function formatCount(n: number): string {
  return COUNT.format(n);
}
