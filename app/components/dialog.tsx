import { Link, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useId, useRef, type ReactNode } from "react";

/**
 * A modal rendered by a nested route: plain markup (overlay + centred panel + a close link), so the same
 * URL works as a page without JS and as a dialog with it. With JS, Escape closes and focus moves inside.
 */
export function Dialog({
  title,
  closeTo,
  children,
  wide = false,
}: {
  title: string;
  /** Where closing goes; defaults to /contacts with the current search (query, page). */
  closeTo?: string;
  children: ReactNode;
  wide?: boolean;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const back = closeTo ?? `/contacts${location.search}`;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") navigate(back, { preventScrollReset: true });
    };
    document.addEventListener("keydown", onKey);
    // Focus the first field (or the panel) so keyboard users start inside the dialog.
    const first = panel.current?.querySelector<HTMLElement>("input:not([type=hidden]), select, textarea, button");
    (first ?? panel.current)?.focus();
    return () => document.removeEventListener("keydown", onKey);
  }, [back, navigate]);

  return (
    <div className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto p-4 sm:items-center">
      <Link to={back} preventScrollReset aria-label="Close dialog" tabIndex={-1} className="fixed inset-0 bg-slate-900/50" />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`relative w-full ${wide ? "max-w-4xl" : "max-w-lg"} rounded-xl bg-white p-6 shadow-xl outline-none`}
      >
        <div className="mb-4 flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          <Link to={back} preventScrollReset aria-label="Close" className="rounded px-2 text-xl leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-900">
            ×
          </Link>
        </div>
        {children}
      </div>
    </div>
  );
}
