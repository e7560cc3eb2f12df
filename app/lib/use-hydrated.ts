import { useSyncExternalStore } from "react";

const subscribe = () => () => {};
/** false on the server and during hydration, true afterwards: no-JS clients never see true. */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
