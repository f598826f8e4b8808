import type { ReactNode } from "react";
import { Link } from "react-router";
import { Pager } from "~/components/tools/ListControls";
import { formatClubTime, formatEventDate } from "~/lib/dates";
import { lastPage } from "~/lib/paging";
import { countOf } from "~/lib/plural";

type Group = { id: string; title: string; date: string };

/**
 * A review page's events, each a group that opens (?event=) to show its entries,
 * newest first, a page at a time. Works without JavaScript; only the opened
 * event's entries are loaded, so the page stays quick with years of submissions.
 */
/** `total` is the opened event's number of entries (only that event's are counted). Give `plural` when the noun does not just add an s. */
export function EventGroups({ title, groups, open, total, noun, plural = `${noun}s`, children }: { title: string; groups: Group[]; open: string | null; total: number; noun: string; plural?: string; children: ReactNode }) {
  const opened = groups.find((g) => g.id === open);
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-center text-5xl">{title}</h1>
      <hr className="divider my-6" />
      {groups.length === 0 ? <p className="text-center text-dust">{`No ${plural} yet.`}</p> : null}
      <ul className="flex flex-col gap-3">
        {groups.map((group) => {
          const isOpen = group.id === opened?.id;
          return (
            <li key={group.id} className="panel p-4">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <Link to={isOpen ? "?" : `?event=${group.id}`} aria-expanded={isOpen} preventScrollReset className="font-display text-xl text-brass no-underline hover:underline">
                  {group.title}
                </Link>
                <span className="text-sm text-dust">{isOpen ? `${formatEventDate(group.date)} · ${countOf(total, noun, plural)}` : formatEventDate(group.date)}</span>
              </div>
              {isOpen ? <div className="mt-4 flex flex-col gap-4">{children}</div> : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function EntryPager({ page, total, pageSize }: { page: number; total: number; pageSize: number }) {
  return <Pager page={page} lastPage={lastPage(total, pageSize)} />;
}

export function Author({ firstName, lastName, at }: { firstName: string; lastName: string; at: string | Date }) {
  return (
    <p className="text-sm text-dust">
      <span className="font-bold text-parchment">{`${firstName} ${lastName}`}</span>
      {` · ${formatClubTime(at)}`}
    </p>
  );
}
