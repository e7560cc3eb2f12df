import * as ToastPrimitive from "@radix-ui/react-toast";
import X from "lucide-react/icons/x";
import type { Toast } from "~/toast/toast";
import { DURATION, variantClass } from "./toast-style";

/**
 * The Radix part of the toaster (swipe, F8, timers, focus): its own chunk, fetched when the first toast is shown,
 * so pages such as the login screen do not ship it in their first bytes (issue 15's byte budget).
 */
export default function ToastRegion({
  current,
  open,
  onOpenChange,
}: {
  current: Toast;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <ToastPrimitive.Provider duration={DURATION} swipeDirection="right" swipeThreshold={50}>
      <ToastPrimitive.Root
        key={current.id}
        open={open}
        onOpenChange={onOpenChange}
        className={`relative rounded-md border p-4 pr-8 shadow-lg data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:translate-x-full ${variantClass[current.variant]}`}
        data-testid="toast"
      >
        <ToastPrimitive.Title asChild>
          <div className="text-sm font-semibold" data-testid="toast-title">
            {current.title}
          </div>
        </ToastPrimitive.Title>
        {current.description ? (
          <ToastPrimitive.Description className="mt-1 text-sm opacity-90">
            {current.description}
          </ToastPrimitive.Description>
        ) : null}
        <ToastPrimitive.Close
          aria-label="Close"
          className="absolute top-2 right-2 rounded p-0.5 opacity-70 hover:opacity-100"
        >
          <X aria-hidden="true" className="size-4" />
        </ToastPrimitive.Close>
      </ToastPrimitive.Root>
      <ToastPrimitive.Viewport className="fixed right-0 bottom-0 z-[100] m-0 flex w-full max-w-[420px] list-none flex-col gap-2 p-4 outline-none" />
    </ToastPrimitive.Provider>
  );
}
