import type { ReactNode } from "react";
import { EventGroups } from "./EventGroups";
import type { QueueResult } from "./review-queue.form";
import { QueueNotice } from "./QueueEntry";
import { filterQuery, QueueFilters, type QueueFilterValue } from "./QueueFilters";

/** What a queued review page's loader gives the frame around its entries (see loadQueuedReview). */
type QueuedGroups = {
  groups: { id: string; title: string; date: string }[];
  groupsPage: number;
  groupsLastPage: number;
  open: string | null;
  total: number;
  filter: QueueFilterValue;
  staff: { id: string; name: string }[];
  passing?: Record<string, number>;
  fresh?: Record<string, number>;
};

/**
 * A review page's events as a queue: the filters above the events, kept on the links between
 * them, and the outcome of an action on an entry the filter no longer shows. `shown` are the ids
 * of the entries on the page; `notice` is anything else to say above the list.
 */
export function QueuedEventGroups({
  title,
  noun,
  review,
  shown,
  result,
  notice,
  children,
}: {
  title: string;
  noun: string;
  review: QueuedGroups;
  shown: string[];
  result?: QueueResult;
  notice?: ReactNode;
  children: ReactNode;
}) {
  return (
    <EventGroups
      title={title}
      noun={noun}
      groups={review.groups}
      groupsPage={review.groupsPage}
      groupsLastPage={review.groupsLastPage}
      open={review.open}
      total={review.total}
      keep={filterQuery(review.filter)}
      passing={review.passing}
      fresh={review.fresh}
      before={
        <>
          <QueueFilters filter={review.filter} staff={review.staff} keep={{ event: review.open }} />
          <QueueNotice result={result} shown={shown} />
          {notice}
        </>
      }
    >
      {children}
    </EventGroups>
  );
}
