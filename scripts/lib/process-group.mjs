// Stopping a child started with `detached: true` (its own process group, so wrangler's workerd goes with it).

/** Sends `signal` to the child's whole group, waits `graceMs`, then SIGKILLs what is left; a gone group is fine. */
export async function stopProcessGroup(child, signal, graceMs) {
  try {
    process.kill(-child.pid, signal);
  } catch {}
  await new Promise((r) => setTimeout(r, graceMs));
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {}
}
