import { Link } from "~/components/Link";
import type { ReactNode } from "react";
import { Pager } from "~/components/ListControls";
import { formatClubTime, formatEventDate } from "~/lib/dates";
import { lastPage } from "~/lib/paging";
import { countOf } from "~/lib/plural";

type Group = { id: string; title: string; date: string };

/** Which page of a review page's events is shown (`?groups=`), of how many. */
type GroupsPaging = { groupsPage: number; groupsLastPage: number };
/** What the links between events keep of the address (a queue filter: "&status=new"). */
type Kept = { keep?: string };

/**
 * A review page's events, each a group that opens (?event=) to show its entries,
 * newest first, ten events and a page of entries at a time. Works without JavaScript;
 * only the opened event's entries are loaded, so the page stays quick with years of
 * submissions.
 */
/**
 * `total` is the opened event's number of entries (only that event's are counted). Under a queue
 * filter, `passing` holds how many entries of each listed event pass it. `fresh` holds how many
 * of each listed event's entries need someone (new ones; costumes waiting for a verdict), said
 * as `freshLabel`. Give `plural` when the noun does not just add an s.
 */
export function EventGroups({
  title,
  groups,
  groupsPage,
  groupsLastPage,
  open,
  total,
  noun,
  plural = `${noun}s`,
  keep = "",
  passing,
  fresh,
  freshLabel = "new",
  before,
  children,
}: {
  title: string;
  groups: Group[];
  open: string | null;
  total: number;
  noun: string;
  plural?: string;
  passing?: Record<string, number>;
  fresh?: Record<string, number>;
  freshLabel?: string;
  before?: ReactNode;
  children: ReactNode;
} & GroupsPaging &
  Kept) {
  const opened = groups.find((g) => g.id === open);
  // Closing an event stays on its page of events.
  const closed = groupsPage > 0 ? `?groups=${groupsPage}${keep}` : `?${keep.slice(1)}`;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-center text-5xl">{title}</h1>
      <hr className="divider my-6" />
      {before ? <div className="mb-4 flex flex-col gap-3">{before}</div> : null}
      {groups.length === 0 ? <p className="text-center text-dust">{`No ${plural} yet.`}</p> : null}
      <ul className="flex flex-col gap-3">
        {groups.map((group) => {
          const isOpen = group.id === opened?.id;
          return (
            <li key={group.id} className="panel p-4">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <h2 className="text-xl">
                  <Link
                    to={isOpen ? closed : `?event=${group.id}${keep}`}
                    aria-expanded={isOpen}
                    preventScrollReset
                    className="font-display text-brass no-underline hover:underline"
                  >
                    {group.title}
                    {/* Two events may share a title: the date (shown beside it) names each link apart. */}
                    <span className="sr-only">{`, ${formatEventDate(group.date)}`}</span>
                  </Link>
                </h2>
                <span className="text-sm text-dust">
                  {groupNote(group, isOpen ? total : undefined, passing, noun, plural)}
                  {fresh ? <FreshCount n={fresh[group.id] ?? 0} label={freshLabel} /> : null}
                </span>
              </div>
              {isOpen ? <div className="mt-4 flex flex-col gap-4">{children}</div> : null}
            </li>
          );
        })}
      </ul>
      <GroupsPager groupsPage={groupsPage} groupsLastPage={groupsLastPage} keep={keep} />
    </div>
  );
}

/** An event's date, and how many entries it has when open, or how many pass the queue's filter when filtered. */
function groupNote(
  group: Group,
  openTotal: number | undefined,
  passing: Record<string, number> | undefined,
  noun: string,
  plural: string,
): string {
  const date = formatEventDate(group.date);
  if (passing) {
    const n = openTotal ?? passing[group.id] ?? 0;
    return `${date} · ${n === 0 ? `no ${plural} match` : `${countOf(n, noun, plural)} ${n === 1 ? "matches" : "match"}`}`;
  }
  return openTotal === undefined ? date : `${date} · ${countOf(openTotal, noun, plural)}`;
}

/** How many of an event's entries need someone: brass while there are any. */
function FreshCount({ n, label }: { n: number; label: string }) {
  return (
    <span className={n > 0 ? "font-bold text-brass" : undefined} data-testid="fresh-count">
      {` · ${n} ${label}`}
    </span>
  );
}

/** Newer and older events; a new page of events opens none. */
function GroupsPager({ groupsPage, groupsLastPage, keep = "" }: GroupsPaging & Kept) {
  if (groupsLastPage <= 0) return null;
  return (
    <nav aria-label="Events" className="mt-6 flex items-center justify-between">
      {groupsPage > 0 ? (
        <Link to={groupsPage > 1 ? `?groups=${groupsPage - 1}${keep}` : `?${keep.slice(1)}`}>Newer events</Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-dust">{`Events page ${groupsPage + 1} of ${groupsLastPage + 1}`}</span>
      {groupsPage < groupsLastPage ? <Link to={`?groups=${groupsPage + 1}${keep}`}>Older events</Link> : <span />}
    </nav>
  );
}

export function EntryPager({ page, total, pageSize }: { page: number; total: number; pageSize: number }) {
  return <Pager page={page} lastPage={lastPage(total, pageSize)} />;
}

/** Who sent an entry and when; the entry's heading where nothing else names it (an order, a paper). */
export function Author({
  firstName,
  lastName,
  at,
  heading = false,
}: {
  firstName: string;
  lastName: string;
  at: string | Date;
  heading?: boolean;
}) {
  const Line = heading ? "h3" : "p";
  return (
    <Line className="font-serif text-sm font-normal tracking-normal text-dust">
      <span className="font-bold text-parchment">{`${firstName} ${lastName}`}</span>
      {` · ${formatClubTime(at)}`}
    </Line>
  );
}
