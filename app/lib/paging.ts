/** Entries per page on the staff review pages (inside an opened event, or letters). */
export const REVIEW_PAGE_SIZE = 25;
/** Post-event letters are long (eleven answers each), so fewer make a page that still opens quickly. */
export const PEL_REVIEW_PAGE_SIZE = 10;

export function lastPage(total: number, size: number): number {
  return Math.max(0, Math.ceil(total / size) - 1);
}
