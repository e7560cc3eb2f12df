import { inject } from "vitest";
import "./fakes/provided-context";

/** A committed file from tests/fixtures as the browser would upload it (a File), read in Node by global-setup. */
export function fixtureFile(name: string, type = "application/octet-stream"): File {
  const b64 = inject("fixtures")[name];
  if (b64 === undefined) throw new Error(`no fixture ${name} in tests/fixtures`);
  return new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name, { type });
}
