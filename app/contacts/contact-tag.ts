// A contact's free tags (issue 28 item 1): what a tag may be, and how it is stored. Shared by the form and the domain.
import { z } from "zod";
import { AppError } from "~/lib/app-error";

export const MAX_TAG_LENGTH = 40;
/** Tags are labels a rep reads at a glance; past this a list or a rule serves better. */
export const MAX_TAGS_PER_CONTACT = 20;
export const TAG_FORMAT =
  "A tag is 1 to 40 letters, digits, spaces, hyphens, underscores or ampersands (for example “roof replaced”)";

/** Trimmed, inner spaces folded, lower-cased: "Roof  Replaced" and "roof replaced" are one tag. */
export const normalizeTag = (tag: string) => tag.trim().replace(/\s+/g, " ").toLowerCase();

/** A tag as a form or JSON gives it: bounded before anything else reads it, then normalised. */
export const tagField = z
  .string({ required_error: TAG_FORMAT, invalid_type_error: TAG_FORMAT })
  .max(200, TAG_FORMAT)
  .transform(normalizeTag)
  .pipe(
    z
      .string()
      .min(1, TAG_FORMAT)
      .max(MAX_TAG_LENGTH, TAG_FORMAT)
      .regex(/^[\p{L}\p{N}][\p{L}\p{N} _&-]*$/u, TAG_FORMAT),
  );

/** A tag as typed, normalised, or the one validation error (its field: `tag`). */
export function requireTag(raw: string): string {
  const parsed = tagField.safeParse(raw);
  if (!parsed.success) throw new AppError("validation", TAG_FORMAT, { field: "tag" });
  return parsed.data;
}
