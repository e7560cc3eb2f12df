// Text that ends up in an email header (the subject): one line, no control characters (issue 23). The SendGrid
// provider strips them again (headerSafe) for anything that got in another way.

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
export const SUBJECT_CONTROL_CHARS = "Subject cannot contain line breaks or control characters";

/** For a zod `.refine` on a subject: true when `s` (or its absence) has no CR, LF, NUL, tab or other C0/DEL character. */
export const isOneLine = (s: string | null | undefined) => !s || !CONTROL.test(s);
