import { useEffect } from "react";

/**
 * Registers /sw.js once the page has hydrated (decision 049) — never before, and the app works the same without it
 * (no JS, an old browser, a failed registration). Signing out with JS also tells the worker to drop its caches
 * (the logout response's `Clear-Site-Data: "cache"` does it without JS too).
 */
export function ServiceWorkerRegistration() {
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => undefined);
    const onSubmit = (e: SubmitEvent) => {
      const form = e.target as HTMLFormElement | null;
      if (form && new URL(form.action, location.href).pathname === "/logout")
        navigator.serviceWorker.controller?.postMessage({ type: "clear-caches" });
    };
    document.addEventListener("submit", onSubmit, true);
    return () => document.removeEventListener("submit", onSubmit, true);
  }, []);
  return null;
}
