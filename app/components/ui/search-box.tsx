import { Form, useLocation, useNavigation, useResolvedPath, useSubmit } from "@remix-run/react";
import { Search } from "lucide-react";
import { useEffect, useId, useRef, type ReactNode } from "react";
import { Button } from "./button";
import { Input } from "./field";
import { cx } from "./cx";

/**
 * A GET search form (role="search"): without JS the Search button submits it and the loader reads `?q=`. With
 * `debounceMs`, once hydrated the results follow the typing (replacing the history entry). `hidden` keeps other
 * query parameters (e.g. the tab) across searches. `inForm`: the box sits inside a bigger form (a picker in a
 * dialog) and its button submits that form as a GET, so what else was typed or ticked travels with the search.
 */
export function SearchBox({
  label,
  value,
  placeholder,
  action,
  name = "q",
  id,
  hidden,
  debounceMs,
  className,
  inForm,
  buttonTestId,
}: {
  /** Accessible name of the search field (visually hidden). */
  label: string;
  /** The search the page currently shows (from the loader). */
  value: string;
  placeholder?: string;
  /** The route to GET; defaults to the current one. */
  action?: string;
  name?: string;
  id?: string;
  hidden?: Record<string, string | undefined>;
  debounceMs?: number;
  className?: string;
  inForm?: boolean;
  buttonTestId?: string;
}) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const navigation = useNavigation();
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const box = useRef<HTMLInputElement>(null);
  const location = useLocation();
  const target = useResolvedPath(action ?? ".");
  // A GET to this form's route with a different query is this search (or a page of it) loading.
  const searching =
    navigation.state === "loading" &&
    navigation.location.pathname === target.pathname &&
    navigation.location.search !== location.search;
  useEffect(() => () => clearTimeout(timer.current), []);
  // Follow the URL when it changes from elsewhere (back button, a link) without fighting the user's typing.
  useEffect(() => {
    if (box.current && document.activeElement !== box.current) box.current.value = value;
  }, [value]);

  const Wrapper = inForm ? InFormSearch : Form;
  return (
    <Wrapper
      method="get"
      action={action}
      role="search"
      className={cx("flex max-w-full min-w-0 flex-1 gap-2 sm:min-w-64", className)}
      onSubmit={() => clearTimeout(timer.current)}
    >
      {Object.entries(hidden ?? {}).map(([k, v]) => (v ? <input key={k} type="hidden" name={k} value={v} /> : null))}
      <label htmlFor={inputId} className="sr-only">
        {label}
      </label>
      <div className="relative min-w-0 flex-1">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-fg-subtle"
        />
        <Input
          id={inputId}
          ref={box}
          type="search"
          name={name}
          defaultValue={value}
          placeholder={placeholder}
          className="pl-9"
          onChange={
            debounceMs === undefined
              ? undefined
              : (e) => {
                  const form = e.currentTarget.form;
                  const next = e.currentTarget.value.trim();
                  clearTimeout(timer.current);
                  // A pending search must not fire after the user has moved on (Enter, a link, a dialog).
                  timer.current = setTimeout(
                    () => next !== value && submit(form, { replace: true, preventScrollReset: true }),
                    debounceMs,
                  );
                }
          }
        />
      </div>
      <Button
        type="submit"
        variant="secondary"
        data-testid={buttonTestId}
        {...(inForm ? { formMethod: "get", formAction: action, formNoValidate: true } : {})}
      >
        {searching ? "Searching..." : "Search"}
      </Button>
    </Wrapper>
  );
}

/** The search row inside another form: no form of its own (forms cannot nest); the button carries the GET. */
function InFormSearch({
  children,
  className,
  role,
}: {
  children: ReactNode;
  className?: string;
  role?: string;
  method?: string;
  action?: string;
  onSubmit?: () => void;
}) {
  return (
    <div role={role} className={className}>
      {children}
    </div>
  );
}
