import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** False during the server render and hydration, true once JavaScript runs in the page. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
