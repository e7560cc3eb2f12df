import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

/**
 * Keeps a page fresh while work runs in the background (a queue import, a broadcast): with JS it revalidates the
 * loaders every `seconds`; without JS a <noscript> meta refresh reloads the page. Renders nothing once `active` is false.
 */
export function LiveRefresh({ active, seconds = 2 }: { active: boolean; seconds?: number }) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), seconds * 1000);
    return () => clearInterval(t);
  }, [active, seconds, revalidator]);
  return active ? (
    <noscript>
      <meta httpEquiv="refresh" content={String(seconds)} />
    </noscript>
  ) : null;
}
