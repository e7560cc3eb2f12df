import { format } from "date-fns";
import { useHydrated } from "~/lib/use-hydrated";

/**
 * A timestamp in the reader's own time zone. The server cannot know it, so the first render (and any
 * no-JS page) shows UTC, labelled; after hydration the browser's zone takes over.
 */
export function LocalTime({ iso, pattern = "MMM d, yyyy HH:mm" }: { iso: string; pattern?: string }) {
  const hydrated = useHydrated();
  const d = new Date(iso);
  const text = hydrated
    ? format(d, pattern)
    : `${format(new Date(d.getTime() + d.getTimezoneOffset() * 60_000), pattern)} UTC`;
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {text}
    </time>
  );
}
