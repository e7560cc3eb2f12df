import * as ToastPrimitive from "@radix-ui/react-toast";
import X from "lucide-react/icons/x";
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import type { Toast, ToastInput } from "~/toast/toast";
import { useHydrated } from "~/lib/use-hydrated";

// SPEC §9: one toast at a time, 5000 ms, swipe right past 50 px, F8 focuses the region, max 420 px wide.
const DURATION = 5000;

type ToastFn = (t: ToastInput) => void;
const ToastContext = createContext<ToastFn>(() => {});
export const useToast = () => useContext(ToastContext);

const variantClass = {
  default: "border-border bg-surface text-fg",
  destructive: "border-danger bg-danger text-danger-fg",
};

function ToastBody({ toast }: { toast: Toast }) {
  return (
    <>
      <div className="text-sm font-semibold" data-testid="toast-title">
        {toast.title}
      </div>
      {toast.description ? <div className="mt-1 text-sm opacity-90">{toast.description}</div> : null}
    </>
  );
}

/**
 * `initial` comes from the server (a flash after a redirect, or an action's failure). Without JS it
 * renders as a static status box; once hydrated, Radix Toast takes over.
 */
export function ToastProvider({ initial, children }: { initial: Toast | null; children: ReactNode }) {
  const hydrated = useHydrated();
  const [current, setCurrent] = useState<Toast | null>(null);
  const [open, setOpen] = useState(false);

  const show = useCallback<ToastFn>((t) => {
    setCurrent({ id: t.id ?? crypto.randomUUID(), title: t.title, description: t.description, variant: t.variant ?? "default" });
    setOpen(true);
  }, []);

  // A server toast (flash or action failure) moves into Radix once hydrated: adjusted while rendering, as React
  // recommends for state derived from a changed prop, instead of an effect that renders twice.
  const [shownId, setShownId] = useState<string | null>(null);
  if (hydrated && initial && initial.id !== shownId) {
    setShownId(initial.id);
    show(initial);
  }

  const value = useMemo(() => show, [show]);

  return (
    <ToastContext.Provider value={value}>
      <ToastPrimitive.Provider duration={DURATION} swipeDirection="right" swipeThreshold={50}>
        {children}
        {!hydrated && initial ? (
          <div
            role="status"
            aria-live="polite"
            className={`fixed right-4 bottom-4 z-[100] w-[calc(100%-2rem)] max-w-[420px] rounded-md border p-4 shadow-lg ${variantClass[initial.variant]}`}
            data-testid="toast"
          >
            <ToastBody toast={initial} />
          </div>
        ) : null}
        {current ? (
          <ToastPrimitive.Root
            key={current.id}
            open={open}
            onOpenChange={setOpen}
            className={`relative rounded-md border p-4 pr-8 shadow-lg data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:translate-x-full ${variantClass[current.variant]}`}
            data-testid="toast"
          >
            <ToastPrimitive.Title asChild>
              <div className="text-sm font-semibold" data-testid="toast-title">
                {current.title}
              </div>
            </ToastPrimitive.Title>
            {current.description ? (
              <ToastPrimitive.Description className="mt-1 text-sm opacity-90">{current.description}</ToastPrimitive.Description>
            ) : null}
            <ToastPrimitive.Close aria-label="Close" className="absolute top-2 right-2 rounded p-0.5 opacity-70 hover:opacity-100">
              <X aria-hidden="true" className="size-4" />
            </ToastPrimitive.Close>
          </ToastPrimitive.Root>
        ) : null}
        <ToastPrimitive.Viewport className="fixed right-0 bottom-0 z-[100] m-0 flex w-full max-w-[420px] list-none flex-col gap-2 p-4 outline-none" />
      </ToastPrimitive.Provider>
    </ToastContext.Provider>
  );
}
