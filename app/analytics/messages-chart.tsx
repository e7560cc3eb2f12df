import type { DailyPoint } from "./get-analytics.server";
import { formatCount } from "~/lib/format-count";

const SERIES = [
  { key: "sent", label: "Sent", color: "var(--color-primary, #2563eb)" },
  { key: "delivered", label: "Delivered", color: "var(--color-success, #16a34a)" },
  { key: "failed", label: "Failed", color: "var(--color-danger, #dc2626)" },
  { key: "received", label: "Received", color: "var(--color-accent, #9333ea)" },
] as const;

const W = 720;
const H = 240;
const PAD = { left: 40, right: 12, top: 12, bottom: 28 };

/**
 * Messages per day as an SVG line chart drawn on the server (shows without JS), with <title>/<desc> and a data
 * table beside it carrying every value as text.
 */
export function MessagesChart({ points }: { points: DailyPoint[] }) {
  const max = Math.max(1, ...points.flatMap((p) => SERIES.map((s) => p[s.key])));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (points.length <= 1 ? innerW / 2 : (i / (points.length - 1)) * innerW);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const totals = Object.fromEntries(SERIES.map((s) => [s.key, points.reduce((a, p) => a + p[s.key], 0)]));
  const first = points[0]?.day ?? "";
  const last = points[points.length - 1]?.day ?? "";
  const labelEvery = Math.max(1, Math.ceil(points.length / 7));
  return (
    <figure className="space-y-3" data-testid="messages-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="chart-title chart-desc" className="h-auto w-full">
        <title id="chart-title">Messages per day</title>
        <desc id="chart-desc">
          {`From ${first} to ${last}: ${SERIES.map((s) => `${totals[s.key]} ${s.label.toLowerCase()}`).join(", ")}.`}
        </desc>
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={y(max * f)}
              y2={y(max * f)}
              stroke="currentColor"
              strokeOpacity={0.12}
            />
            <text x={PAD.left - 6} y={y(max * f) + 4} textAnchor="end" fontSize={10} fill="currentColor" opacity={0.6}>
              {Math.round(max * f)}
            </text>
          </g>
        ))}
        {points.map((p, i) =>
          i % labelEvery === 0 ? (
            <text key={p.day} x={x(i)} y={H - 8} textAnchor="middle" fontSize={10} fill="currentColor" opacity={0.6}>
              {p.day.slice(5)}
            </text>
          ) : null,
        )}
        {SERIES.map((s) => (
          <polyline
            key={s.key}
            data-series={s.key}
            fill="none"
            stroke={s.color}
            strokeWidth={2}
            points={points.map((p, i) => `${x(i).toFixed(1)},${y(p[s.key]).toFixed(1)}`).join(" ")}
          />
        ))}
      </svg>
      <figcaption className="flex flex-wrap gap-4 text-xs text-fg-muted">
        {SERIES.map((s) => (
          <span key={s.key} className="inline-flex items-center gap-1">
            <span aria-hidden="true" className="inline-block h-2 w-4 rounded" style={{ background: s.color }} />
            {s.label}: {formatCount(totals[s.key])}
          </span>
        ))}
      </figcaption>
      <details>
        <summary className="cursor-pointer text-sm text-fg-muted">Daily figures</summary>
        <table className="mt-2 w-full text-left text-xs" data-testid="chart-table">
          <caption className="sr-only">Messages per day</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              {SERIES.map((s) => (
                <th key={s.key} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.day}>
                <th scope="row" className="font-normal">
                  {p.day}
                </th>
                {SERIES.map((s) => (
                  <td key={s.key}>{p[s.key]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
