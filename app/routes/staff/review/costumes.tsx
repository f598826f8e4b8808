import { useEffect, useMemo } from "react";
import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/costumes";
import { CostumePhotoGrid, CostumeStatusBadge } from "~/features/costume/CostumePhotos";
import { EventGroups } from "~/features/review/EventGroups";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { Alert } from "~/components/ui/Alert";
import { SubmitButton } from "~/components/ui/SubmitButton";
import { TextAreaField } from "~/components/ui/TextAreaField";
import { COSTUME_MESSAGES, CostumeVerdictForm } from "~/features/costume/costume.form";
import { checkForm, type FieldErrors, readForm } from "~/web/forms/kernel";
import { QUEUE_INTENTS, type QueueResult } from "~/features/review/review-queue.form";
import { QueueEntry, QueueNotice, type QueueData } from "~/features/review/QueueEntry";
import { useActionAt } from "~/features/review/QueueControls";
import { filterQuery, QueueFilters } from "~/features/review/QueueFilters";
import type { ActionAnswer } from "~/web/actions.server";
import { queueFilterOf } from "~/features/review/queue-filter.server";
import { answerQueueForm } from "~/features/review/queue-actions.server";
import { COSTUME_NOTE_MAX, COSTUME_STATUS_LABELS, type CostumeStatus } from "~/game/costume";
import { formatClubTime } from "~/lib/dates";
import { revalidateAfterConflict } from "~/web/revalidate";
import { failSafely } from "~/web/actions.server";
import { loadCostumeQueue, recordCostumeVerdict, type CostumeEntry } from "~/features/costume/costume-review.server";
import { requireAccess } from "~/web/guards.server";
import { reviewQuery } from "~/features/review/event-reviews.server";

/**
 * Costume photos per event, for cast and managers: every accepted member registered for the
 * opened event with their photos and status, those waiting for a verdict first. Staff approve,
 * or ask for changes with a note the member reads on their costume page; each verdict is audited.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireAccess(context, request, "staff");
  const { event, groups } = reviewQuery(request.url);
  return loadCostumeQueue({ event, groups }, queueFilterOf(request.url), staff.id);
}

type ActionData = {
  userId?: string;
  ok?: string;
  message?: string;
  errors?: FieldErrors;
  values?: Record<string, string | undefined>;
} & QueueResult;

/** A verdict on a member's photos, or one of the queue's forms (take, hand back, set status). */
export async function action({ request, context }: Route.ActionArgs): Promise<ActionAnswer<ActionData>> {
  const staff = requireAccess(context, request, "staff");
  const values = await readForm(request);
  if (QUEUE_INTENTS.includes(values.intent ?? "")) return answerQueueForm(staff, "costume", values);
  const form = checkForm(CostumeVerdictForm, values);
  const userId = form.values.userId;
  if (!form.ok) {
    const message = form.errors.note ?? form.errors.latestPhotoId ?? form.errors.verdict ?? COSTUME_MESSAGES.noPhotos;
    return data<ActionData>({ userId, message, errors: form.errors, values: form.values }, { status: 400 });
  }
  return failSafely<ActionData>(
    "recording a costume verdict",
    { userId, message: COSTUME_MESSAGES.reviewFailed, values: form.values },
    async () => {
      const outcome = await recordCostumeVerdict(staff, form.data);
      if (!outcome.ok)
        return data({ userId, message: outcome.message, values: form.values }, { status: outcome.status });
      return data({
        userId,
        ok: form.data.verdict === "approved" ? COSTUME_MESSAGES.approved : COSTUME_MESSAGES.changesRequested,
      });
    },
  );
}

/** New photos arrived, or the photos are gone (409): the next verdict names the photo now latest. */
export const shouldRevalidate = revalidateAfterConflict;

/** The id of a member's entry, which a verdict returns to (an anchor in the form's address). */
const entryAnchor = (userId: string) => `costume-${userId}`;

const SUMMARY_ORDER: CostumeStatus[] = ["waiting", "changes_requested", "missing", "approved"];

function Summary({ entries }: { entries: CostumeEntry[] }) {
  if (entries.length === 0) return <p className="text-dust">Nobody accepted is registered for this event yet.</p>;
  return (
    <p className="text-sm text-dust" data-testid="costume-summary">
      {SUMMARY_ORDER.map(
        (status) => `${COSTUME_STATUS_LABELS[status]}: ${entries.filter((e) => e.status === status).length}`,
      ).join(" · ")}
    </p>
  );
}

function Entry({
  entry,
  eventId,
  answer,
  queue,
  queued,
}: {
  entry: CostumeEntry;
  eventId: string;
  answer?: ActionData;
  queue: QueueData;
  queued?: QueueResult;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("userId") === entry.userId;
  const name = `${entry.firstName} ${entry.lastName}`;
  const about = `${name}'s costume photos`;
  const latest = entry.photos.at(-1);
  const anchor = entryAnchor(entry.userId);
  const actionAt = useActionAt(anchor);
  const headingId = `${anchor}-name`;
  const noteValue = answer && !answer.ok ? (answer.values?.note ?? "") : "";
  const noteId = `note-${entry.userId}`;
  // A verdict given empties the note box; the form itself stays, so the keyboard stays on the button pressed.
  const reviewedAt = entry.review?.reviewedAt;
  useEffect(() => {
    const note = document.getElementById(noteId);
    if (answer?.ok && note instanceof HTMLTextAreaElement) note.value = "";
  }, [answer?.ok, noteId, reviewedAt]);
  return (
    <article
      id={anchor}
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-md border border-timber/70 p-4"
      data-testid="costume-entry"
    >
      {/* One status, the costume's own: taken or not is the assignee's line (the queue's "answered" is a verdict here). */}
      <QueueEntry
        entryId={`${eventId}:${entry.userId}`}
        about={about}
        queue={queue}
        result={queued}
        badge={<CostumeStatusBadge status={entry.status} />}
        lead={
          <h3 id={headingId} className="font-bold text-parchment">
            {name}
            {entry.characterName ? <span className="font-normal text-dust">{` · ${entry.characterName}`}</span> : null}
          </h3>
        }
        body={
          <>
            {entry.review ? (
              <p className="text-sm text-dust">
                {`${entry.review.verdict === "approved" ? "Approved" : "Changes asked for"} ${formatClubTime(entry.review.reviewedAt)}`}
                {entry.review.note ? (
                  <span className="block whitespace-pre-wrap text-parchment">{entry.review.note}</span>
                ) : null}
              </p>
            ) : null}
            {entry.photos.length === 0 ? (
              <p className="text-sm text-dust">No photo sent yet.</p>
            ) : (
              <CostumePhotoGrid photos={entry.photos} whose={`${name}'s`} />
            )}
          </>
        }
      />
      {answer?.ok ? <Alert kind="success">{answer.ok}</Alert> : null}
      {answer?.message ? <Alert kind="error">{answer.message}</Alert> : null}
      {latest ? (
        // Sent back to this page at the entry, so without JavaScript the answer opens there; the
        // latest photo follows the page's data.
        <Form method="post" action={actionAt} preventScrollReset noValidate className="flex flex-col gap-3">
          <input type="hidden" name="userId" value={entry.userId} />
          <input type="hidden" name="eventId" value={eventId} />
          <input type="hidden" name="latestPhotoId" value={latest.id} />
          <input type="hidden" name="decidedOver" value={entry.review?.reviewedAt ?? ""} />
          <TextAreaField
            label={`Note to ${name}`}
            hint="Required when asking for changes: say what to change. Optional with an approval."
            name="note"
            rows={3}
            maxLength={COSTUME_NOTE_MAX}
            defaultValue={noteValue}
            error={answer?.errors?.note}
            id={noteId}
          />
          <div className="flex flex-wrap gap-3">
            <SubmitButton name="verdict" value="approved" className="btn btn-primary" busy={busy}>
              Approve<span className="sr-only">{` ${about}`}</span>
            </SubmitButton>
            <SubmitButton name="verdict" value="changes_requested" className="btn btn-secondary" busy={busy}>
              Ask for changes<span className="sr-only">{` to ${name}'s costume`}</span>
            </SubmitButton>
          </div>
        </Form>
      ) : null}
    </article>
  );
}

export default function ViewCostumes({ loaderData, actionData }: Route.ComponentProps) {
  const { entries, open } = loaderData;
  // A verdict's answer, as the queue's notice takes it, for an entry the filter no longer shows.
  // Made once per answer: the notice takes the keyboard when it is given a new one.
  const verdict = useMemo(
    () =>
      open && actionData?.userId && !actionData.entryId
        ? { entryId: `${open}:${actionData.userId}`, ok: actionData.ok, message: actionData.message }
        : undefined,
    [actionData, open],
  );
  return (
    <EventGroups
      title="Costume Photos"
      noun="member"
      groups={loaderData.groups}
      groupsPage={loaderData.groupsPage}
      groupsLastPage={loaderData.groupsLastPage}
      open={open}
      total={entries.length}
      keep={filterQuery(loaderData.filter)}
      fresh={loaderData.waiting}
      freshLabel="waiting for review"
      before={
        <>
          <QueueFilters filter={loaderData.filter} staff={loaderData.staff} keep={{ event: open }} />
          <QueueNotice
            result={actionData?.entryId ? actionData : verdict}
            shown={open ? entries.map((entry) => `${open}:${entry.userId}`) : []}
          />
        </>
      }
    >
      <Summary entries={entries} />
      {open
        ? entries.map((entry) => (
            <Entry
              key={entry.userId}
              entry={entry}
              eventId={open}
              answer={actionData?.userId === entry.userId && !actionData.entryId ? actionData : undefined}
              queue={loaderData}
              queued={actionData?.entryId ? actionData : undefined}
            />
          ))
        : null}
    </EventGroups>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Costume Photos · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Costume Photos", COSTUME_MESSAGES.loadFailed);
