import * as TabsPrimitive from "@radix-ui/react-tabs";
import { Link, useNavigate } from "@remix-run/react";
import { useId, type MouseEvent, type ReactNode } from "react";
import { useHydrated } from "~/lib/use-hydrated";
import { cx, focusRing } from "./cx";
import { formatCount } from "~/lib/format-count";

/** `countAtLeast`: the count is a lower bound, shown as "1,000+". */
export type TabItem = { value: string; label: ReactNode; href: string; count?: number; countAtLeast?: boolean };

const tabClass = (selected: boolean) =>
  cx(
    "-mb-px inline-flex items-center gap-1 rounded-t-md border-b-2 px-4 py-2 text-sm",
    focusRing,
    selected ? "border-primary font-semibold text-fg" : "border-transparent text-fg-muted hover:text-fg",
  );

function TabLabel({ item }: { item: TabItem }) {
  return (
    <>
      {item.label}
      {item.count !== undefined ? (
        <span className="ml-1 rounded-full bg-muted px-2 text-xs">
          {formatCount(item.count)}
          {item.countAtLeast ? "+" : ""}
        </span>
      ) : null}
    </>
  );
}

const plainClick = (e: MouseEvent) => e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;

/**
 * Tabs whose state is the URL: each tab is a link (`href`, e.g. "?tab=failed"), and the loader renders the selected
 * panel, so they work without JS (a <nav> of links with aria-current). Once hydrated they become Radix Tabs: a
 * tablist with arrow-key movement between tabs, Enter/Space or a click navigates to the tab's URL.
 */
export function Tabs({
  label,
  value,
  items,
  children,
}: {
  label: string;
  value: string;
  items: TabItem[];
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const baseId = useId();
  const tabId = (v: string) => `${baseId}-tab-${v}`;
  const panelId = `${baseId}-panel`;

  return (
    <TabsPrimitive.Root
      value={value}
      activationMode="manual"
      onValueChange={(v) => {
        const item = items.find((i) => i.value === v);
        if (item) navigate(item.href, { preventScrollReset: true });
      }}
    >
      {hydrated ? (
        <TabsPrimitive.List aria-label={label} className="flex gap-1 overflow-x-auto border-b border-border">
          {items.map((item) => (
            <TabsPrimitive.Trigger key={item.value} value={item.value} asChild>
              <Link
                to={item.href}
                preventScrollReset
                id={tabId(item.value)}
                aria-controls={panelId}
                className={tabClass(item.value === value)}
                // Radix navigates on mousedown / Enter / Space through onValueChange; a second navigation from the
                // link's own click would be redundant. Modified clicks (new tab) stay the browser's.
                onClick={(e) => plainClick(e) && e.preventDefault()}
              >
                <TabLabel item={item} />
              </Link>
            </TabsPrimitive.Trigger>
          ))}
        </TabsPrimitive.List>
      ) : (
        <nav aria-label={label} className="flex gap-1 overflow-x-auto border-b border-border">
          {items.map((item) => (
            <Link
              key={item.value}
              to={item.href}
              aria-current={item.value === value ? "page" : undefined}
              className={tabClass(item.value === value)}
            >
              <TabLabel item={item} />
            </Link>
          ))}
        </nav>
      )}
      {/* Same element before and after hydration (its content is kept); only the tab semantics are added. */}
      <div
        id={panelId}
        role={hydrated ? "tabpanel" : undefined}
        aria-labelledby={hydrated ? tabId(value) : undefined}
        tabIndex={hydrated ? 0 : undefined}
        className={cx("mt-4 rounded-md", focusRing)}
      >
        {children}
      </div>
    </TabsPrimitive.Root>
  );
}
