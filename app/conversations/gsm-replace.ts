// Characters that force an SMS into UCS-2 (70 per segment instead of 160) but have a plain GSM-7 twin.
const REPLACEMENTS: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201A": "'",
  "\u201B": "'",
  "\u201C": '"',
  "\u201D": '"',
  "\u201E": '"',
  "\u201F": '"',
  "\u2013": "-",
  "\u2014": "-",
  "\u2015": "-",
  "\u2212": "-",
  "\u2026": "...",
  "\u00A0": " ",
  "\u2009": " ",
  "\u202F": " ",
  "\u2022": "-",
};
const RE = new RegExp(`[${Object.keys(REPLACEMENTS).join("")}]`, "g");

/** The text with curly quotes, dashes, ellipses and odd spaces made plain (each replaced once, nothing else touched). */
export function toPlainGsm(text: string): string {
  return text.replace(RE, (c) => REPLACEMENTS[c] ?? c);
}

/** Whether toPlainGsm would change anything (the reply box offers "Replace them" when it would). */
export function hasReplaceableChars(text: string): boolean {
  return new RegExp(RE.source).test(text);
}
