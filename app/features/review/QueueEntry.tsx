import { useEffect, useRef, type ReactNode } from "react";
import { useLocation } from "react-router";
import { Alert } from "~/components/ui/Alert";
import type { QueueResult } from "./review-queue.form";
import { NEW_QUEUE_STATE, type QueueState } from "~/game/review-queue";
import { Icon } from "~/components/Icon";
import { ANSWER_PARAM, QueueControls, type EntryParts } from "./QueueControls";
import { StaffReply, type Reply } from "./StaffReply";

/** What a queued review page's loader gives its entries (see loadQueuedReview). */
export type QueueData = {
  states: Record<string, QueueState>;
  viewerId: string;
  /** Where staff reply to this kind: the replies sent to each entry, and the reply form's one-time key. */
  replies?: { byEntry: Record<string, Reply[]>; key: string };
};

/**
 * The queue's part of one entry on a review page: its status and assignee, and, where staff
 * reply to this kind, the replies sent. The status and reply forms are open for the entry the
 * address names (?answer=), and for an entry whose last form came back with a problem.
 * `about` names the entry ("Ada Fox's order"). `answer` is a page's own answer form for the
 * entry (a letter answered as its NPC), opened with the others; `open` keeps them open when that
 * form came back with a problem. `lead`, `body` and `badge` make the queue's section the whole
 * entry, led by its status, author and assignee (QueueControls).
 */
export function QueueEntry({
  entryId,
  about,
  queue,
  result,
  answer,
  open = false,
  lead,
  body,
  badge,
}: {
  entryId: string;
  about: string;
  queue: QueueData;
  result?: QueueResult;
  answer?: ReactNode;
  open?: boolean;
} & EntryParts) {
  const { search } = useLocation();
  const mine = result?.entryId === entryId ? result : undefined;
  const replies = queue.replies?.byEntry[entryId];
  const replyKey = queue.replies?.key;
  const isReply = mine?.intent === "reply";
  const answering = open || new URLSearchParams(search).get(ANSWER_PARAM) === entryId || Boolean(mine && !mine.ok);
  return (
    <QueueControls
      entryId={entryId}
      state={queue.states[entryId] ?? NEW_QUEUE_STATE}
      viewerId={queue.viewerId}
      about={about}
      result={isReply ? undefined : mine}
      answering={answering}
      canReply={queue.replies !== undefined || answer !== undefined}
      lead={lead}
      body={body}
      badge={badge}
    >
      {replies && replyKey && (replies.length > 0 || answering) ? (
        <StaffReply
          entryId={entryId}
          replies={replies}
          replyKey={replyKey}
          to={about}
          result={isReply ? mine : undefined}
          answering={answering}
        />
      ) : null}
      {answering ? answer : null}
    </QueueControls>
  );
}

/**
 * A long entry's text, closed until staff open it (a native <details>: no script needed, and the
 * keyboard and screen readers know it). `summary` says what opens ("Read the letter").
 */
export function EntryBody({ summary, children }: { summary: ReactNode; children: ReactNode }) {
  return (
    <details className="group rounded-md border border-timber/70" data-testid="entry-body">
      <summary className="flex min-h-11 items-center gap-2 px-3 py-2 font-bold text-brass">
        <Icon name="chevron-down" className="size-5 shrink-0 transition-transform group-open:rotate-180" />
        <span>{summary}</span>
      </summary>
      <div className="flex flex-col gap-3 border-t border-timber/70 p-3">{children}</div>
    </details>
  );
}

/**
 * A queue action's outcome for an entry the filter no longer shows (taken off "new", say): said
 * above the list instead, and the keyboard taken there, as the button pressed has gone with it.
 */
export function QueueNotice({ result, shown }: { result?: QueueResult; shown: string[] }) {
  const gone = result?.entryId && !shown.includes(result.entryId) && (result.ok || result.message) ? result : undefined;
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (gone) notice.current?.focus();
  }, [gone]);
  if (!gone) return null;
  return (
    <div ref={notice} tabIndex={-1} className="rounded-md">
      {gone.ok ? (
        <Alert kind="success">{`${gone.ok} It no longer matches the filter.`}</Alert>
      ) : (
        <Alert kind="error">{gone.message}</Alert>
      )}
    </div>
  );
}
