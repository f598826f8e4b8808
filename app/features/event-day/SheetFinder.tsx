import type { FocusEvent, MouseEvent, ReactNode } from "react";
import { useHydrated } from "~/lib/use-hydrated";
import { countOf } from "~/lib/plural";
import { cabinAnchor, isFiltering, NO_FILTER, type SheetFilter } from "./sheet-filter";

/** The finder's id: each cabin's "Back to top" leads to it. */
export const FINDER_ID = "sheet-finder";

/**
 * Finding one attendee among many at the gate: a search and an "orders to hand out only" filter,
 * which run in the page (so they work on the offline copy too), and a jump to each cabin. The
 * jumps are plain anchors, so without JavaScript they still work and the whole sheet is shown;
 * the search and the filter need scripts and appear only with them.
 */
export function SheetFinder({
  shown,
  total,
  filter,
  onFilter,
}: {
  /** The cabins left by the filter, with their attendees. */
  shown: { cabin: string; attendees: unknown[] }[];
  total: number;
  filter: SheetFilter;
  onFilter: (filter: SheetFilter) => void;
}) {
  const hydrated = useHydrated();
  const filtering = isFiltering(filter);
  const count = shown.reduce((sum, cabin) => sum + cabin.attendees.length, 0);
  return (
    <section
      id={FINDER_ID}
      tabIndex={-1}
      aria-labelledby="sheet-finder-title"
      className="panel mb-6 flex flex-col gap-4 p-4 print:hidden"
    >
      <h2 id="sheet-finder-title" className="sr-only">
        Find on this sheet
      </h2>
      {hydrated ? (
        <div role="search" className="flex flex-col gap-1">
          <label htmlFor="sheet-search" className="font-bold">
            Find an attendee
          </label>
          <input
            id="sheet-search"
            type="search"
            value={filter.query}
            onChange={(event) => onFilter({ ...filter, query: event.currentTarget.value })}
            onFocus={bringToTop}
            placeholder="Name, character or email"
            autoComplete="off"
            className="min-h-11 w-full rounded-md border border-timber bg-ink px-3 py-2"
          />
          <div className="flex flex-wrap items-center gap-x-6 gap-y-1">
            <label className="flex min-h-11 cursor-pointer items-center gap-3">
              <input
                type="checkbox"
                checked={filter.ordersOnly}
                onChange={(event) => onFilter({ ...filter, ordersOnly: event.currentTarget.checked })}
                className="size-5 accent-brass"
              />
              Orders to hand out only
            </label>
            <p role="status" data-testid="finder-status" className="font-bold empty:hidden">
              {filtering ? `${countOf(count, "attendee")} of ${total} shown.` : ""}
            </p>
            {filtering ? (
              <button type="button" className="btn btn-secondary px-3 py-1 text-sm" onClick={() => onFilter(NO_FILTER)}>
                Show everyone
              </button>
            ) : null}
          </div>
        </div>
      ) : null}
      {/* While a name is typed the matches come straight after the search box, not after the cabins' list. */}
      {shown.length > 0 && !filter.query.trim() ? (
        <nav aria-labelledby="cabin-jump-title" className="flex flex-col gap-2">
          <h3 id="cabin-jump-title" className="font-serif text-sm font-bold text-dust">
            Jump to a cabin
          </h3>
          <ul className="flex flex-wrap gap-2">
            {shown.map(({ cabin, attendees }) => (
              <li key={cabin}>
                <JumpLink
                  to={cabinAnchor(cabin)}
                  className="inline-flex min-h-11 items-center gap-1 rounded-md border border-timber bg-ink px-3 py-1 text-parchment no-underline hover:border-brass hover:text-brass hover:no-underline"
                >
                  {cabin} <span className="text-dust">{`(${attendees.length})`}</span>
                </JumpLink>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </section>
  );
}

/**
 * On a phone, the search box goes to the top of the screen when it is tapped, so the matches
 * have the room between it and the keyboard.
 */
function bringToTop(event: FocusEvent<HTMLInputElement>) {
  if (window.matchMedia("(max-width: 47.99rem)").matches)
    event.currentTarget.closest("[role=search]")?.scrollIntoView({ block: "start" });
}

/**
 * A link to a place on the sheet: a plain anchor, which works without JavaScript. With it, the
 * page is scrolled and the place focused without changing the address, which holds the note of
 * the last "Handed out" (and the router would move the keyboard back to that row).
 */
export function JumpLink({ to, className, children }: { to: string; className?: string; children: ReactNode }) {
  function jump(event: MouseEvent<HTMLAnchorElement>) {
    const target = document.getElementById(to);
    if (!target || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    target.scrollIntoView({ block: "start" });
    target.focus({ preventScroll: true });
  }
  return (
    <a href={`#${to}`} onClick={jump} className={className}>
      {children}
    </a>
  );
}
