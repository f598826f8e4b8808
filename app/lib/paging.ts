/** Entries per page on the staff review pages (inside an opened event, or letters). */
export const REVIEW_PAGE_SIZE = 25;
/** A filtered letter list is counted up to this many matches; past it the page says "More than 1,000 letters match". */
export const LETTER_COUNT_CAP = 1_000;
/** Post-event letters are long (eleven answers each), so fewer make a page that still opens quickly. */
export const PEL_REVIEW_PAGE_SIZE = 10;

/**
 * Events shown at a time on a review page and on the events page: a club that has run for
 * decades has hundreds, and a page drawing them all grew with every year.
 */
export const EVENTS_PAGE_SIZE = 10;

/** A page number from an address (`?page=`, or `name`): 0 for anything missing or malformed, at most 10,000. */
export function pageParam(address: string | URL, name = "page"): number {
  const value = new URL(address).searchParams.get(name);
  return Math.max(0, Math.min(10_000, Number.parseInt(value ?? "0", 10) || 0));
}

export function lastPage(total: number, size: number): number {
  return Math.max(0, Math.ceil(total / size) - 1);
}
