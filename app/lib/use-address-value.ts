import { useState } from "react";
import { useLocation } from "react-router";

/**
 * A GET form control's value (a search box, a filter's dropdown) as a controlled value: what the
 * person chooses, until the page arrives at an address (a search, a filter, a tab, a link, the
 * same address again). Then it is the address's value once more, so the control never shows a
 * choice the list on screen was not made with. An uncontrolled control (`defaultValue`) would keep
 * its old value across client-side navigations, since the same element stays on the page.
 */
export function useAddressValue(fromAddress: string): [string, (value: string) => void] {
  const { key } = useLocation();
  const [held, setHeld] = useState({ key, fromAddress, value: fromAddress });
  const arrived = held.key !== key || held.fromAddress !== fromAddress;
  // Set while rendering (React's way to reset state from props): no frame shows the old value.
  if (arrived) setHeld({ key, fromAddress, value: fromAddress });
  return [arrived ? fromAddress : held.value, (value) => setHeld((current) => ({ ...current, value }))];
}
