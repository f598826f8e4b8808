import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/costume";
import { CostumePhotoGrid, CostumeStatusBadge } from "~/features/costume/CostumePhotos";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { ProfileLayout } from "~/features/members/ProfileLayout";
import { Alert } from "~/components/ui/Alert";
import { COSTUME_MESSAGES, RemovePhotoForm } from "~/features/costume/costume.form";
import { CostumeUploadForm, eventAction, eventAnchor, forEvent } from "~/features/costume/CostumeUploadForm";
import { readCostumeUpload } from "~/features/costume/costume-upload.server";
import { checkForm, readForm } from "~/web/forms/kernel";
import { COSTUME_PHOTO_WEEKS_BEFORE } from "~/game/setting";
import { formatClubTime, formatEventDate } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import { failSafely } from "~/web/actions.server";
import {
  addCostumePhoto,
  memberCostumeEvents,
  removeCostumePhoto,
  type MemberCostumeEvent,
} from "~/features/costume/costumes.server";
import { requireAccess } from "~/web/guards.server";

/**
 * Costume photos: for each upcoming event the member is registered for, the due date (two
 * weeks before) with a countdown, the photos sent, staff's verdict and note, and a form to
 * send another photo. Works without JavaScript; with it, a photo too large is caught before
 * it is sent, and the upload shows its progress (CostumeUploadForm).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "character");
  const events = await memberCostumeEvents(user.id);
  return { events, done: doneFrom(new URL(request.url), events) };
}

type ActionData = { eventId?: string; ok?: string; message?: string };

/**
 * What was just done, from the address a photo sent or removed leads to (`?done=uploaded&event=…`):
 * the page after a change is fetched anew, so a reload cannot send the same photo twice.
 */
const DONE_MESSAGES = { uploaded: COSTUME_MESSAGES.uploaded, removed: COSTUME_MESSAGES.removed } as const;
type Done = keyof typeof DONE_MESSAGES;

function doneFrom(url: URL, events: MemberCostumeEvent[]): ActionData | null {
  const done = url.searchParams.get("done");
  const eventId = url.searchParams.get("event");
  if (!(done === "uploaded" || done === "removed") || !events.some((event) => event.id === eventId)) return null;
  return { eventId: eventId!, ok: DONE_MESSAGES[done] };
}

/** Back to the event's section, saying what was done (the page's top for an event id not well formed): thrown, as a redirect is an answer. */
function doneAt(eventId: string | undefined, done: Done): never {
  if (!isUuid(eventId)) throw redirect("/costume", 303);
  throw redirect(`/costume?${new URLSearchParams({ done, event: eventId })}#${eventAnchor(eventId)}`, 303);
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "character");
  if ((request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    const upload = await readCostumeUpload(request);
    const eventId = upload.values.eventId;
    if (!upload.ok) return data<ActionData>({ eventId, message: upload.message }, { status: upload.status });
    try {
      if (upload.values.intent !== "upload")
        return data<ActionData>({ eventId, message: "That action is not available here." }, { status: 400 });
      return await failSafely<ActionData>(
        "saving a costume photo",
        { eventId, message: COSTUME_MESSAGES.failed },
        async () => {
          const outcome = await addCostumePhoto(user, upload);
          if (!outcome.ok) return data({ eventId, message: outcome.message }, { status: outcome.status });
          return doneAt(eventId, "uploaded");
        },
      );
    } finally {
      // Stored by now, or refused: the copy the upload was written to goes.
      await upload.file?.discard();
    }
  }
  const fields = await readForm(request);
  const eventId = fields.eventId;
  // The upload form sent without its file (a client that cannot send files).
  if (fields.intent === "upload")
    return data<ActionData>({ eventId, message: COSTUME_MESSAGES.chooseFile }, { status: 400 });
  const parsed = checkForm(RemovePhotoForm, fields);
  if (!parsed.ok)
    return data<ActionData>(
      {
        eventId,
        message: fields.intent === "remove" ? COSTUME_MESSAGES.noSuchPhoto : "That action is not available here.",
      },
      { status: 400 },
    );
  return failSafely<ActionData>(
    "removing a costume photo",
    { eventId, message: "The photo could not be removed. Please try again." },
    async () => {
      if (!(await removeCostumePhoto(user.id, parsed.data.photoId)))
        return data({ eventId, message: COSTUME_MESSAGES.noSuchPhoto }, { status: 404 });
      return doneAt(eventId, "removed");
    },
  );
}

function EventCostume({ event, answer }: { event: MemberCostumeEvent; answer?: ActionData }) {
  const navigation = useNavigation();
  const removing =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "remove"
      ? navigation.formData.get("photoId")
      : null;
  const anchor = eventAnchor(event.id);
  return (
    // Named by its title and date: two events may share a title.
    <section
      id={anchor}
      aria-labelledby={`${anchor}-title ${anchor}-date`}
      className="panel flex flex-col gap-4"
      data-testid="costume-event"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id={`${anchor}-title`} className="text-2xl">
          {event.title}
        </h2>
        <span id={`${anchor}-date`} className="text-sm text-dust">
          {formatEventDate(event.date)}
        </span>
      </div>
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-6 gap-y-2">
        <dt className="font-bold text-dust">Photo due</dt>
        <dd>
          {formatEventDate(event.dueDate)}
          {event.status === "approved" ? null : (
            <>
              {" · "}
              <strong
                className={event.countdown.startsWith("overdue") ? "text-blood" : "text-brass"}
                data-testid="costume-countdown"
              >
                {event.countdown}
              </strong>
            </>
          )}
        </dd>
        <dt className="font-bold text-dust">Status</dt>
        <dd>
          <CostumeStatusBadge status={event.status} />
        </dd>
      </dl>
      {event.review?.note ? (
        <div className="rounded-md border border-timber bg-ink/60 p-3" data-testid="costume-note">
          <p className="text-sm text-dust">{`${event.review.verdict === "approved" ? "Staff's note" : "Staff asked for changes"} · ${formatClubTime(event.review.reviewedAt)}`}</p>
          <p className="mt-1 whitespace-pre-wrap">{event.review.note}</p>
        </div>
      ) : null}
      {answer?.ok ? <Alert kind="success">{answer.ok}</Alert> : null}
      {answer?.message ? <Alert kind="error">{answer.message}</Alert> : null}
      <CostumePhotoGrid
        photos={event.photos}
        whose="Your"
        extra={(photo, place) => (
          <Form method="post" action={eventAction(event.id)} preventScrollReset>
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="eventId" value={event.id} />
            <input type="hidden" name="photoId" value={photo.id} />
            <button
              type="submit"
              className="btn btn-secondary w-full text-sm"
              disabled={removing === photo.id}
              aria-label={`Remove photo ${place}, sent ${formatClubTime(photo.createdAt)},${forEvent(event)}`}
            >
              {removing === photo.id ? "Removing…" : "Remove"}
            </button>
          </Form>
        )}
      />
      <CostumeUploadForm event={event} />
    </section>
  );
}

export default function Costume({ loaderData, actionData: refused }: Route.ComponentProps) {
  const { events } = loaderData;
  // A refusal is the action's answer; what was done is told by the address it led to.
  const actionData = refused ?? loaderData.done ?? undefined;
  // An answer about an event no longer listed (or none) is shown at the top.
  const orphanAnswer = actionData && !events.some((e) => e.id === actionData.eventId) ? actionData : undefined;
  return (
    <ProfileLayout canHaveCharacter active="costume">
      <div className="flex min-w-0 flex-col gap-6">
        <section aria-labelledby="costume-heading" className="panel flex flex-col gap-3">
          <h2 id="costume-heading" className="text-2xl">
            Costume photos
          </h2>
          <p>
            Send a photo of your costume at least {COSTUME_PHOTO_WEEKS_BEFORE} weeks before each event you are
            registered for. Staff look at it and approve it, or ask for changes with a note you will see here. Western
            clothing of the 1870s: no visible logos or brands, and nothing obviously modern.
          </p>
          <p className="text-sm text-dust">
            Only you, cast and managers see your photos. Location and camera details are removed from every photo when
            it arrives.
          </p>
          {orphanAnswer?.ok ? <Alert kind="success">{orphanAnswer.ok}</Alert> : null}
          {orphanAnswer?.message ? <Alert kind="error">{orphanAnswer.message}</Alert> : null}
          {events.length === 0 ? (
            <p data-testid="costume-none">
              You are not registered for any upcoming event. Once a manager records your registration, the event appears
              here with its due date.
            </p>
          ) : null}
        </section>
        {events.map((event) => (
          <EventCostume
            key={event.id}
            event={event}
            answer={actionData?.eventId === event.id ? actionData : undefined}
          />
        ))}
      </div>
    </ProfileLayout>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Costume Photos · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Costume Photos", COSTUME_MESSAGES.loadFailed);
