import { Form, useNavigation } from "react-router";
import { QUEUE_STATUS_LABELS, QUEUE_STATUSES, type QueueStatus } from "~/game/review-queue";
import { Alert } from "~/components/ui/Alert";
import type { QueueResult } from "~/forms/review-queue";

export type QueueState = {
  status: QueueStatus;
  assigneeId: string | null;
  assigneeName: string | null;
};

const BADGE: Record<QueueStatus, string> = {
  new: "border-brass text-brass",
  in_progress: "border-parchment text-parchment",
  answered: "border-sage text-sage",
};

/** The entry's status in words (the colour only repeats it). */
export function QueueBadge({ status }: { status: QueueStatus }) {
  return (
    <span className={`inline-block rounded-full border px-3 py-0.5 text-sm font-bold ${BADGE[status]}`} data-testid="queue-status">
      {QUEUE_STATUS_LABELS[status]}
    </span>
  );
}

function useBusy(entryId: string): boolean {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("entryId") === entryId;
}

/**
 * An entry's place in its review queue: status, who has taken it, and the buttons to take it,
 * hand it back or set its status. Plain forms posted to the page, so they work without JavaScript.
 * `about` names the entry for screen readers, as every entry on the page has the same buttons.
 */
export function QueueControls({ entryId, state, viewerId, about, result }: { entryId: string; state: QueueState; viewerId: string; about: string; result?: QueueResult }) {
  const busy = useBusy(entryId);
  const mine = state.assigneeId === viewerId;
  const statusId = `queue-status-${entryId}`;
  return (
    <section aria-label={`Queue: ${about}`} className="flex flex-col gap-2 border-t border-timber/60 pt-3" data-testid="queue-controls">
      <div className="flex flex-wrap items-center gap-2">
        <QueueBadge status={state.status} />
        <span className="text-sm text-dust" data-testid="queue-assignee">
          {state.assigneeId ? `Taken by ${mine ? "you" : (state.assigneeName ?? "a former staff member")}` : "Nobody has taken it"}
        </span>
      </div>
      {result?.ok ? <Alert kind="success">{result.ok}</Alert> : null}
      {result?.message ? <Alert kind="error">{result.message}</Alert> : null}
      <div className="flex flex-wrap items-end gap-3">
        {mine ? (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="hand_back" />
            <input type="hidden" name="entryId" value={entryId} />
            <button type="submit" className="btn btn-secondary" disabled={busy}>
              Hand back<span className="sr-only">{` ${about}`}</span>
            </button>
          </Form>
        ) : (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="take" />
            <input type="hidden" name="entryId" value={entryId} />
            <button type="submit" className="btn btn-secondary" disabled={busy}>
              Take it<span className="sr-only">{` ${about}`}</span>
            </button>
          </Form>
        )}
        <Form method="post" preventScrollReset className="flex flex-wrap items-end gap-2" key={state.status}>
          <input type="hidden" name="intent" value="set_status" />
          <input type="hidden" name="entryId" value={entryId} />
          <div className="flex flex-col gap-1">
            <label htmlFor={statusId} className="text-sm font-bold text-parchment">
              Status
            </label>
            <select id={statusId} name="status" defaultValue={state.status} className="min-h-11 rounded-md border border-timber bg-ink px-3 py-2 text-parchment">
              {QUEUE_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {QUEUE_STATUS_LABELS[status]}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn btn-secondary" disabled={busy}>
            Set status<span className="sr-only">{` of ${about}`}</span>
          </button>
        </Form>
      </div>
    </section>
  );
}
