import * as DialogPrimitive from "@radix-ui/react-dialog";
import { Link, useLocation, useMatches, useNavigate } from "@remix-run/react";
import { X } from "lucide-react";
import {
  createContext,
  useCallback,
  useContext,
  useId,
  useMemo,
  useRef,
  useState,
  type MouseEvent,
  type ReactNode,
} from "react";
import { useHydrated } from "~/lib/use-hydrated";
import { Button, type ButtonProps, type ButtonSize, type ButtonVariant } from "./button";
import { cx, focusRing } from "./cx";

type DialogState = { closeTo: string; close: (() => void) | null };
const DialogContext = createContext<DialogState | null>(null);

/** The route above the one rendering the dialog, with the current query (search, page): where closing goes. */
function useParentHref(): string {
  const matches = useMatches();
  const location = useLocation();
  const parent = matches[matches.length - 2];
  return `${parent?.pathname ?? "/"}${location.search}`;
}

const plainClick = (e: MouseEvent) => e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;

/**
 * A nested route shown as a modal dialog. The server renders it open: overlay, a labelled role="dialog" panel and
 * close links to the parent route, so the URL works without JS. Once hydrated, Radix Dialog adds the focus trap,
 * Escape, click outside, scroll lock and hiding the page from screen readers; closing navigates to the parent route
 * and puts focus back on the control that opened the dialog.
 *
 * No portal: the same tree renders on the server and hydrates in place, so nothing typed before hydration is lost.
 */
export function Dialog({
  title,
  description,
  closeTo,
  size = "md",
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  /** Where closing goes; defaults to the parent route with the current query string. */
  closeTo?: string;
  size?: "md" | "lg";
  children: ReactNode;
}) {
  const parentHref = useParentHref();
  const back = closeTo ?? parentHref;
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const [open, setOpen] = useState(true);
  const closing = useRef(false);
  const titleId = useId();
  const descriptionId = useId();
  // The control that had focus when the dialog mounted (the "Add Contact" link after a client-side navigation;
  // nothing on a fresh page load).
  const [opener] = useState(() =>
    typeof document !== "undefined" &&
    document.activeElement instanceof HTMLElement &&
    document.activeElement !== document.body
      ? document.activeElement
      : null,
  );

  const close = useCallback(() => {
    if (closing.current) return;
    closing.current = true;
    setOpen(false);
    navigate(back, { preventScrollReset: true });
  }, [back, navigate]);
  const state = useMemo<DialogState>(
    () => ({ closeTo: back, close: hydrated ? close : null }),
    [back, close, hydrated],
  );

  return (
    <DialogContext.Provider value={state}>
      <DialogPrimitive.Root open={open} onOpenChange={(next) => (next ? undefined : close())}>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-overlay p-4">
          {/* Without JS a click beside the panel follows this link; with JS Radix handles the outside click. */}
          <DialogCloseLink tabIndex={-1} aria-label="Close dialog" className="fixed inset-0 cursor-default" />
          <DialogPrimitive.Content
            aria-modal="true"
            // Radix wires these only after its effects run; the server markup needs them too.
            aria-labelledby={titleId}
            aria-describedby={description ? descriptionId : undefined}
            // `my-auto` centres a short panel and top-aligns a tall one (auto margins never push it above the
            // overlay's scroll origin, as `items-center` did: a five-step dialog's title sat 350 px out of reach).
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              if (opener?.isConnected) opener.focus();
            }}
            className={cx(
              "relative my-auto w-full min-w-0 rounded-xl bg-surface p-4 sm:p-6 text-fg shadow-xl outline-none",
              size === "lg" ? "max-w-4xl" : "max-w-lg",
            )}
          >
            <div className="mb-4 flex items-start justify-between gap-4">
              <div>
                <DialogPrimitive.Title id={titleId} className="text-lg font-semibold">
                  {title}
                </DialogPrimitive.Title>
                {description ? (
                  <p id={descriptionId} className="mt-1 text-sm text-fg-muted">
                    {description}
                  </p>
                ) : null}
              </div>
              <DialogCloseLink
                aria-label="Close"
                className={cx("rounded p-1 text-fg-subtle hover:bg-muted hover:text-fg", focusRing)}
              >
                <X aria-hidden="true" className="size-5" />
              </DialogCloseLink>
            </div>
            {children}
          </DialogPrimitive.Content>
        </DialogPrimitive.Overlay>
      </DialogPrimitive.Root>
    </DialogContext.Provider>
  );
}

function useDialog(): DialogState {
  const ctx = useContext(DialogContext);
  if (!ctx) throw new Error("Dialog parts must be rendered inside <Dialog>");
  return ctx;
}

/** Where closing goes, and a click handler that (with JS, on a plain click) closes through the dialog instead. */
function useCloseLink() {
  const { closeTo, close } = useDialog();
  const onClick = (e: MouseEvent) => {
    if (close && plainClick(e)) {
      e.preventDefault();
      close();
    }
  };
  return { to: closeTo, onClick, preventScrollReset: true };
}

/** A plain link to where the dialog closes (the × and the backdrop). */
function DialogCloseLink(props: {
  className?: string;
  children?: ReactNode;
  tabIndex?: number;
  "aria-label"?: string;
}) {
  return <Link {...useCloseLink()} {...props} />;
}

/** A button-styled link that closes the dialog ("Cancel", "Back to contacts"). */
export function DialogClose({
  children,
  variant = "secondary",
  size = "md",
}: {
  children: ReactNode;
  variant?: ButtonVariant;
  size?: ButtonSize;
}) {
  return (
    <Button {...useCloseLink()} variant={variant} size={size}>
      {children}
    </Button>
  );
}

/** Right-aligned row of dialog actions. */
export function DialogFooter({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cx("flex flex-wrap items-center justify-end gap-2", className)}>{children}</div>;
}

/**
 * The footer of a dialog's form: Cancel (closes, a link without JS) and the submit button, which shows
 * `pendingLabel` and is disabled while the form posts.
 */
export function DialogActions({
  label,
  pendingLabel,
  pending = false,
  ...button
}: { label: ReactNode; pendingLabel?: ReactNode; pending?: boolean } & Pick<
  ButtonProps,
  "icon" | "variant" | "name" | "value"
>) {
  return (
    <DialogFooter>
      <DialogClose>Cancel</DialogClose>
      <Button type="submit" disabled={pending} {...button}>
        {pending && pendingLabel ? pendingLabel : label}
      </Button>
    </DialogFooter>
  );
}
