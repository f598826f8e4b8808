import { useEffect, useRef, type ReactNode } from "react";
import { Form, useLocation, useNavigation } from "react-router";
import { ButtonLink } from "~/components/ui/ButtonLink";
import { SubmitButton } from "~/components/ui/SubmitButton";
import { useHydrated } from "~/lib/use-hydrated";
import { QUEUE_STATUS_LABELS, QUEUE_STATUSES, type QueueState, type QueueStatus } from "~/game/review-queue";
import { Alert } from "~/components/ui/Alert";
import type { QueueResult } from "./review-queue.form";

const BADGE: Record<QueueStatus, string> = {
  new: "border-brass text-brass",
  in_progress: "border-parchment text-parchment",
  answered: "border-sage text-sage",
};

/** The address parameter naming the one entry whose status and reply forms are open. */
export const ANSWER_PARAM = "answer";

/** The entry's status in words (the colour only repeats it). */
export function QueueBadge({ status }: { status: QueueStatus }) {
  return (
    <span
      className={`inline-block rounded-full border px-3 py-0.5 text-sm font-bold ${BADGE[status]}`}
      data-testid="queue-status"
    >
      {QUEUE_STATUS_LABELS[status]}
    </span>
  );
}

export function useBusy(entryId: string, intent?: string): boolean {
  const navigation = useNavigation();
  const form = navigation.formData;
  return (
    navigation.state === "submitting" &&
    form?.get("entryId") === entryId &&
    (intent === undefined || form?.get("intent") === intent)
  );
}

/** The element an entry's queue section carries, so opening or closing its forms keeps it in view. */
export const queueAnchor = (entryId: string) => `queue-${entryId}`;

/**
 * Where a form on a review page posts: this page's address, ending without JavaScript at the
 * part of the entry it changes (`anchor`, an element's id), so the page that answers opens there
 * with the outcome, not at the top. With JavaScript the answer comes in place and the page stays
 * where it is: an anchor would scroll that part to the top of the screen.
 */
export function useActionAt(anchor: string): string {
  const { search } = useLocation();
  const hydrated = useHydrated();
  return hydrated ? search || "?" : `${search || "?"}#${anchor}`;
}

/** This page's address with the entry's forms opened (an id) or closed (null), the rest of the address kept. */
function answerLink(search: string, entryId: string | null, anchor: string) {
  const params = new URLSearchParams(search);
  if (entryId) params.set(ANSWER_PARAM, entryId);
  else params.delete(ANSWER_PARAM);
  const query = params.toString();
  // Without a query the page's own path, so the link drops the one it is on.
  return query ? `?${query}#${anchor}` : `#${anchor}`;
}

/** What an entry shows of itself inside its queue section, when the section is the whole entry. */
export type EntryParts = {
  /** Who sent it (and what it is), on the line after the status. */
  lead?: ReactNode;
  /** The entry itself, after the assignee: a long one in an `EntryBody`, opened on demand. */
  body?: ReactNode;
  /** The status to show instead of the queue's, where the entry has one of its own (a costume's). */
  badge?: ReactNode;
};

/**
 * An entry's place in its review queue: status, who has taken it, the button to take it or hand
 * it back, and a link that opens the entry's status and reply forms. Only the entry being
 * answered carries those forms: a page of 25 entries each with a reply box weighed twice as
 * much and took twice as long to draw. Plain forms and links, so they work without JavaScript.
 * `about` names the entry for screen readers, as every entry on the page has the same buttons.
 * Given a `lead`, the section is the whole entry and leads with status, author and assignee, one
 * line each, then the body, then the buttons: on a phone they are read without scrolling past a
 * letter (a PEL is some 1,000 px long open).
 */
export function QueueControls({
  entryId,
  state,
  viewerId,
  about,
  result,
  answering,
  canReply,
  lead,
  body,
  badge,
  children,
}: {
  entryId: string;
  state: QueueState;
  viewerId: string;
  about: string;
  result?: QueueResult;
  answering: boolean;
  canReply: boolean;
  children?: ReactNode;
} & EntryParts) {
  const busy = useBusy(entryId);
  const { search } = useLocation();
  const mine = state.assigneeId === viewerId;
  const anchor = queueAnchor(entryId);
  const actionAt = useActionAt(anchor);
  const section = useRef<HTMLElement>(null);
  // Opening an entry's forms takes the keyboard to them (the link pressed is gone).
  useEffect(() => {
    if (answering) section.current?.querySelector<HTMLElement>("select, textarea")?.focus({ preventScroll: true });
  }, [answering]);
  const assignee = (
    <span className="text-sm text-dust" data-testid="queue-assignee">
      {state.assigneeId
        ? `Taken by ${mine ? "you" : (state.assigneeName ?? "a former staff member")}`
        : "Nobody has taken it"}
    </span>
  );
  return (
    <section
      ref={section}
      id={anchor}
      aria-label={`Queue: ${about}`}
      className={`flex flex-col gap-2 ${lead ? "" : "border-t border-timber/60 pt-3"}`}
      data-testid="queue-controls"
    >
      {lead ? (
        <div className="flex flex-col items-start gap-1" data-testid="queue-head">
          {badge ?? <QueueBadge status={state.status} />}
          {lead}
          {assignee}
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          {badge ?? <QueueBadge status={state.status} />}
          {assignee}
        </div>
      )}
      {body}
      {result?.ok ? <Alert kind="success">{result.ok}</Alert> : null}
      {result?.message ? <Alert kind="error">{result.message}</Alert> : null}
      <div className="flex flex-wrap items-center gap-3">
        <Form method="post" action={actionAt} preventScrollReset>
          <input type="hidden" name="intent" value={mine ? "hand_back" : "take"} />
          <input type="hidden" name="entryId" value={entryId} />
          <SubmitButton className="btn btn-secondary" busy={busy}>
            {mine ? "Hand back" : "Take it"}
            <span className="sr-only">{` ${about}`}</span>
          </SubmitButton>
        </Form>
        {answering ? (
          <ButtonLink variant="secondary" to={answerLink(search, null, anchor)}>
            Close<span className="sr-only">{` the forms for ${about}`}</span>
          </ButtonLink>
        ) : (
          <ButtonLink variant="secondary" to={answerLink(search, entryId, anchor)}>
            {canReply ? "Reply or set status" : "Set status"}
            <span className="sr-only">{` of ${about}`}</span>
          </ButtonLink>
        )}
      </div>
      {answering ? <StatusForm entryId={entryId} status={state.status} about={about} /> : null}
      {children}
    </section>
  );
}

/** Sets an entry's status by hand (a reply marks it answered by itself). */
function StatusForm({ entryId, status, about }: { entryId: string; status: QueueStatus; about: string }) {
  const busy = useBusy(entryId, "set_status");
  const actionAt = useActionAt(queueAnchor(entryId));
  const statusId = `queue-status-${entryId}`;
  return (
    <Form method="post" action={actionAt} preventScrollReset className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value="set_status" />
      <input type="hidden" name="entryId" value={entryId} />
      <div className="flex flex-col gap-1">
        <label htmlFor={statusId} className="text-sm font-bold text-parchment">
          Status<span className="sr-only">{` of ${about}`}</span>
        </label>
        {/* Made anew when the status changes, so it shows the saved one; the button stays, and keeps the focus. */}
        <select
          key={status}
          id={statusId}
          name="status"
          defaultValue={status}
          className="min-h-11 rounded-md border border-timber bg-ink px-3 py-2 text-parchment"
        >
          {QUEUE_STATUSES.map((option) => (
            <option key={option} value={option}>
              {QUEUE_STATUS_LABELS[option]}
            </option>
          ))}
        </select>
      </div>
      <SubmitButton className="btn btn-secondary" busy={busy}>
        Set status<span className="sr-only">{` of ${about}`}</span>
      </SubmitButton>
    </Form>
  );
}
