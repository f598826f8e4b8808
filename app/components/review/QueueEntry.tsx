import { Alert } from "~/components/ui/Alert";
import type { QueueResult } from "~/forms/review-queue";
import { QueueControls, type QueueState } from "./QueueControls";
import { StaffReply, type Reply } from "./StaffReply";

/** What a queued review page's loader gives its entries (see loadQueuedReview). */
export type QueueData = {
  states: Record<string, QueueState>;
  viewerId: string;
  replies?: Record<string, Reply[]>;
};

const NEW: QueueState = { status: "new", assigneeId: null, assigneeName: null };

/**
 * The queue's part of one entry on a review page: its status and assignee controls, and, where
 * staff reply to this kind, the replies and the reply box. `about` names the entry ("Ada Fox's order").
 */
export function QueueEntry({ entryId, about, queue, result }: { entryId: string; about: string; queue: QueueData; result?: QueueResult }) {
  const mine = result?.entryId === entryId ? result : undefined;
  const replies = queue.replies?.[entryId];
  const isReply = mine?.intent === "reply";
  return (
    <>
      <QueueControls entryId={entryId} state={queue.states[entryId] ?? NEW} viewerId={queue.viewerId} about={about} result={isReply ? undefined : mine} />
      {replies ? <StaffReply entryId={entryId} replies={replies} to={about} result={isReply ? mine : undefined} /> : null}
    </>
  );
}

/** A queue action's outcome for an entry the filter no longer shows (taken off "new", say): said above the list instead. */
export function QueueNotice({ result, shown }: { result?: QueueResult; shown: string[] }) {
  if (!result?.entryId || shown.includes(result.entryId)) return null;
  if (result.ok) return <Alert kind="success">{`${result.ok} It no longer matches the filter.`}</Alert>;
  return result.message ? <Alert kind="error">{result.message}</Alert> : null;
}
