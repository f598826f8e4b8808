/**
 * Finding attendees on the event-day sheet, in the page itself: the sheet is read at the gate,
 * often without signal (its offline copy, public/event-day-sw.js), so a search or a filter can
 * never wait on the server. Shared by the page and its tests; no server code here.
 */

/** What the filter reads of an attendee (the sheet's SheetAttendee has more). */
type Findable = {
  userId: string;
  name: string;
  characterName: string | null;
  email: string | null;
  orders: readonly unknown[];
};

export type SheetFilter = {
  /** Words typed in the search box: each must be found in the name, the character or the email. */
  query: string;
  /** Only attendees with orders still to hand out. */
  ordersOnly: boolean;
};

export const NO_FILTER: SheetFilter = { query: "", ordersOnly: false };

/** Lower case and without accents, so "jose" finds "José" and "O'BRIEN" finds "O'Brien". */
function folded(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

export function isFiltering(filter: SheetFilter): boolean {
  return filter.ordersOnly || filter.query.trim() !== "";
}

/**
 * The cabins with only the attendees the filter lets through, empty cabins left out. `keep` is
 * an attendee shown whatever the filter says: the one whose order was just marked, so the row
 * (with its Undo) does not vanish under the manager's finger.
 */
export function filterSheet<C extends { cabin: string; attendees: readonly Findable[] }>(
  cabins: readonly C[],
  filter: SheetFilter,
  keep: string | null = null,
): C[] {
  if (!isFiltering(filter)) return [...cabins];
  const words = folded(filter.query).split(/\s+/).filter(Boolean);
  const passes = (attendee: Findable) => {
    if (attendee.userId === keep) return true;
    if (filter.ordersOnly && attendee.orders.length === 0) return false;
    const text = folded([attendee.name, attendee.characterName ?? "", attendee.email ?? ""].join(" "));
    return words.every((word) => text.includes(word));
  };
  return cabins
    .map((cabin) => ({ ...cabin, attendees: cabin.attendees.filter(passes) as C["attendees"] }))
    .filter((cabin) => cabin.attendees.length > 0);
}

/** A cabin's heading id, a jump link's target: "Dragon's Hoard" is "cabin-dragon-s-hoard". */
export function cabinAnchor(cabin: string): string {
  return `cabin-${folded(cabin)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")}`;
}
