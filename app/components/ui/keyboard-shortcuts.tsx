import { useEffect, useId, useRef, useState } from "react";
import { useHydrated } from "~/lib/use-hydrated";
import { cx, focusRing } from "./cx";

export type Shortcut = {
  /** The key as KeyboardEvent.key reports it ("j", "e", "u"). "?" is taken: it opens the list. */
  key: string;
  /** What it does, for the list ("Next conversation"). */
  label: string;
  run: () => void;
};

/** Typing in a field is never a shortcut. */
function isTyping(target: EventTarget | null) {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * Single-key shortcuts for a screen, and "?" for their list. Only with JS: without it the server markup has nothing
 * here, and the screen's own links and forms do the same things. A key pressed with Ctrl/⌘/Alt or while typing in a
 * field is left alone.
 */
export function KeyboardShortcuts({
  shortcuts,
  title = "Keyboard shortcuts",
}: {
  shortcuts: Shortcut[];
  title?: string;
}) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  // The listener reads the latest list (a screen rebuilds it on every render) without re-subscribing.
  const current = useRef(shortcuts);
  useEffect(() => {
    current.current = shortcuts;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      if (e.key === "?") {
        e.preventDefault();
        setOpen((o) => !o);
      } else if (e.key === "Escape") setOpen(false);
      else {
        const s = current.current.find((s) => s.key === e.key);
        if (!s) return;
        e.preventDefault();
        s.run();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  if (!hydrated) return null;
  return (
    <div className="relative text-sm">
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-controls={panelId}
        className={cx("rounded text-fg-muted underline-offset-2 hover:underline", focusRing)}
        data-testid="shortcuts-toggle"
      >
        Keyboard shortcuts <kbd className="rounded border border-border px-1 text-xs">?</kbd>
      </button>
      {open ? (
        <section
          id={panelId}
          aria-label={title}
          className="absolute right-0 z-30 mt-2 w-64 rounded-lg border border-border bg-surface p-3 shadow-lg"
          data-testid="shortcuts-help"
        >
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            {[...shortcuts, { key: "?", label: "Show or hide this list" }].map((s) => (
              <div key={s.key} className="contents">
                <dt>
                  <kbd className="rounded border border-border px-1.5 text-xs">{s.key}</kbd>
                </dt>
                <dd className="text-fg-muted">{s.label}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
    </div>
  );
}

/** The rows of a list the row shortcuts move through: `[data-shortcut-row]` inside the element with this id. */
function rowsOf(listId: string) {
  return [...(document.getElementById(listId)?.querySelectorAll<HTMLElement>("[data-shortcut-row]") ?? [])];
}

function currentRow(rows: HTMLElement[]) {
  return rows.findIndex((r) => r.contains(document.activeElement));
}

/** j / k: focus the next (1) or previous (-1) row's first link (the first row when none has the focus). */
export function focusRow(listId: string, step: 1 | -1) {
  const rows = rowsOf(listId);
  if (!rows.length) return;
  const at = currentRow(rows);
  const next = at < 0 ? 0 : Math.min(Math.max(at + step, 0), rows.length - 1);
  rows[next].querySelector<HTMLElement>("a[href]")?.focus();
}

/** A row action by key: clicks the control matching `selector` in the focused row (nothing when no row has the focus). */
export function pressInRow(listId: string, selector: string) {
  const rows = rowsOf(listId);
  const at = currentRow(rows);
  if (at >= 0) rows[at].querySelector<HTMLElement>(selector)?.click();
}
