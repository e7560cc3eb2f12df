/** "1.2s", "297ms" or the SPEC's honest fallback. Shared by the server and the screen (not a .server module). */
export function formatMs(ms: number | null): string {
  if (ms === null) return "No data yet";
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)}s` : `${ms}ms`;
}
