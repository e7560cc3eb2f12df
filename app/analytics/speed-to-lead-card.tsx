import { Link } from "@remix-run/react";
import { MessageSquareReply, MessagesSquare, Send, Timer } from "lucide-react";
import { Card, cx, focusRing, StatCard } from "~/components/ui";
import { RANGES, type Range } from "./rates";
import { formatCount } from "~/lib/format-count";

type Median = { medianMs: number | null; count: number };

/** "45 s", "3 min", "2 h 5 min", "1 d 4 h"; "—" when nothing was measured. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "—";
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/**
 * Speed to lead (issue 26): the medians of lead → first text and first reply → the rep's answer over the chosen
 * period, with the period as links (no JS needed). Dashboard (everyone) and User Analytics (one rep).
 */
export function SpeedToLeadCard({
  figures,
  range,
  hrefFor,
  title = "Speed to lead",
  rep = null,
}: {
  figures: { leadToFirstText: Median; replyToAnswer: Median };
  /** One rep's conversations handled and replies sent in the period (User Analytics, decision 050). */
  rep?: { conversationsHandled: number; repliesSent: number } | null;
  range: Range;
  hrefFor: (r: Range) => string;
  title?: string;
}) {
  const n = (m: Median, what: string) => `Median of ${formatCount(m.count)} ${what}${m.count === 1 ? "" : "s"}`;
  return (
    <Card
      title={title}
      data-testid="speed-to-lead"
      actions={
        <nav aria-label="Speed to lead period" className="flex gap-1">
          {RANGES.map((r) => (
            <Link
              key={r}
              to={hrefFor(r)}
              preventScrollReset
              aria-current={range === r ? "page" : undefined}
              className={cx(
                "rounded-md border px-2 py-1 text-xs",
                range === r ? "border-primary bg-primary-soft font-semibold" : "border-border text-fg-muted",
                focusRing,
              )}
            >
              {r} days
            </Link>
          ))}
        </nav>
      }
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <StatCard
          label="Lead to first text"
          value={formatDuration(figures.leadToFirstText.medianMs)}
          icon={Timer}
          hint={n(figures.leadToFirstText, "lead")}
        />
        <StatCard
          label="First reply to answer"
          value={formatDuration(figures.replyToAnswer.medianMs)}
          icon={MessageSquareReply}
          hint={n(figures.replyToAnswer, "answered reply")}
        />
        {rep ? (
          <>
            <StatCard
              label="Conversations handled"
              value={formatCount(rep.conversationsHandled)}
              icon={MessagesSquare}
              hint="Contacts this rep texted in the period"
            />
            <StatCard
              label="Replies sent"
              value={formatCount(rep.repliesSent)}
              icon={Send}
              hint="Texts this rep sent to contacts in the period"
            />
          </>
        ) : null}
      </div>
    </Card>
  );
}
