import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from "react";
import type { Toast, ToastInput } from "~/toast/toast";
import { useHydrated } from "~/lib/use-hydrated";
import { variantClass } from "./toast-style";

// Radix Toast is fetched with the first toast after hydration (toast-region.tsx), so a page that never toasts never
// downloads it; before hydration a server toast is the static box below.
const ToastRegion = lazy(() => import("./toast-region"));

type ToastFn = (t: ToastInput) => void;
const ToastContext = createContext<ToastFn>(() => {});
export const useToast = () => useContext(ToastContext);

/**
 * After hydration, shows `failure` as a destructive toast each time a new action reply arrives with one (the same
 * error twice in a row is two replies, so two toasts). Without JS the action's page shows the error itself.
 */
export function useFailureToast(reply: unknown, failure: Omit<ToastInput, "variant"> | null | undefined) {
  const toast = useToast();
  // The latest failure, read when `reply` changes: `failure` is a fresh object on every render.
  const latest = useRef(failure);
  useEffect(() => {
    latest.current = failure;
  });
  useEffect(() => {
    if (reply && latest.current) toast({ ...latest.current, variant: "destructive" });
  }, [reply, toast]);
}

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
    setCurrent({
      id: t.id ?? crypto.randomUUID(),
      title: t.title,
      description: t.description,
      variant: t.variant ?? "default",
    });
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
      {hydrated && current ? (
        <Suspense fallback={null}>
          <ToastRegion current={current} open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </ToastContext.Provider>
  );
}
