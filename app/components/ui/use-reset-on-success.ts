import { useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * A form that empties itself once its submission succeeded. Without JS the server renders the next page with an
 * empty form anyway; with JS Remix keeps the same DOM, so a saved reply, profile or template would stay typed in
 * and invite a second send (issue 24). Pass `failed` (the action answered with an error, which must keep what
 * was typed) and, for controlled fields, `onReset`. Spread `{ ref, onSubmit }` on the <Form>.
 */
export function useResetOnSuccess(failed: boolean, onReset?: () => void) {
  const navigation = useNavigation();
  const ref = useRef<HTMLFormElement>(null);
  const submitted = useRef(false);
  const reset = useRef(onReset);
  useEffect(() => {
    reset.current = onReset;
  });
  useEffect(() => {
    if (navigation.state !== "idle" || !submitted.current) return;
    submitted.current = false;
    if (failed) return;
    ref.current?.reset();
    reset.current?.();
  }, [navigation.state, failed]);
  return {
    ref,
    onSubmit: () => {
      submitted.current = true;
    },
  };
}
