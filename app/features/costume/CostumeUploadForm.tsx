import { useState, type FormEvent } from "react";
import { Form, useNavigate, useNavigation, useRevalidator } from "react-router";
import { Alert } from "~/components/ui/Alert";
import { UploadProgress } from "~/components/UploadProgress";
import { COSTUME_PHOTOS_PER_EVENT } from "~/game/costume";
import { formatEventDate } from "~/lib/dates";
import { useUpload } from "~/web/forms/use-upload";
import { COSTUME_MESSAGES, photoProblem } from "./costume.form";
import type { MemberCostumeEvent } from "./costumes.server";

/** The id of an event's section on /costume, which its forms return to (an anchor in their address). */
export const eventAnchor = (eventId: string) => `costume-${eventId}`;

/** Where an event's forms post: the page, at the event's section, so without JavaScript the answer opens there and not at the top. */
export const eventAction = (eventId: string) => `/costume#${eventAnchor(eventId)}`;

/** Names the event for screen readers ("for Blood Moon, Saturday, May 2, 2026"): two events may share a title. */
export const forEvent = (event: MemberCostumeEvent) => ` for ${event.title}, ${formatEventDate(event.date)}`;

/**
 * Sending a costume photo for one event. Without JavaScript a plain form post to /costume; with
 * it, a photo too large is caught before it is sent, and the photo goes to /costume/upload by
 * XMLHttpRequest so the bytes sent show as they go (a 4 MB photo on a slow line takes a while).
 */
export function CostumeUploadForm({ event }: { event: MemberCostumeEvent }) {
  const navigation = useNavigation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const upload = useUpload();
  const [problem, setProblem] = useState<string | null>(null);
  const busy =
    upload.progress !== null ||
    (navigation.state === "submitting" &&
      navigation.formData?.get("eventId") === event.id &&
      navigation.formData.get("intent") === "upload");
  const full = event.photos.length >= COSTUME_PHOTOS_PER_EVENT;
  const inputId = `photo-${event.id}`;

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const body = new FormData(e.currentTarget);
    const file = body.get("photo");
    const found = photoProblem(file instanceof File ? file : null);
    setProblem(found);
    if (found) return;
    const answer = await upload.send("/costume/upload", body);
    const to = answer.body?.to;
    // Saved: the page again, at the event, saying so (as the form's post without JavaScript leads).
    // Already at that address (a second photo), going there would only move to its anchor, reading
    // nothing: the page reads its data again instead.
    if (typeof to === "string") {
      const target = new URL(to, window.location.href);
      if (target.pathname === window.location.pathname && target.search === window.location.search)
        return revalidator.revalidate();
      return navigate(to, { preventScrollReset: true });
    }
    const message = answer.body?.message;
    setProblem(
      typeof message === "string"
        ? message
        : answer.status === 413
          ? COSTUME_MESSAGES.fileSize
          : COSTUME_MESSAGES.failed,
    );
  }

  if (full) return <p className="text-sm text-dust">{COSTUME_MESSAGES.tooMany}</p>;
  return (
    // Made anew after each photo, so the chosen file is not sent twice.
    <Form
      key={event.photos.length}
      method="post"
      action={eventAction(event.id)}
      preventScrollReset
      encType="multipart/form-data"
      noValidate
      onSubmit={onSubmit}
      className="flex flex-col gap-3 border-t border-timber pt-4"
    >
      <input type="hidden" name="intent" value="upload" />
      <input type="hidden" name="eventId" value={event.id} />
      <div className="flex flex-col gap-1">
        <label htmlFor={inputId} className="font-bold">
          {event.photos.length === 0 ? "Your costume photo" : "Another photo"}
          <span className="sr-only">{forEvent(event)}</span>
        </label>
        <input
          id={inputId}
          name="photo"
          type="file"
          required
          disabled={busy}
          accept=".jpg,.jpeg,.png,image/jpeg,image/png"
          aria-describedby={`${inputId}-hint`}
          aria-invalid={problem ? true : undefined}
          className="w-full rounded-md border border-timber bg-ink px-3 py-2 file:mr-3 file:rounded file:border-0 file:bg-rust-dark file:px-3 file:py-1 file:text-parchment"
        />
        <p id={`${inputId}-hint`} className="text-sm text-dust">
          JPG or PNG, less than 5 MB. Your whole costume, head to boots, in good light.
        </p>
      </div>
      {problem ? <Alert kind="error">{problem}</Alert> : null}
      <UploadProgress id={`${inputId}-progress`} progress={upload.progress} checking="Checking the photo…" />
      <button type="submit" className="btn btn-primary self-start" disabled={busy}>
        {busy ? "Uploading…" : "Upload photo"}
        <span className="sr-only">{forEvent(event)}</span>
      </button>
    </Form>
  );
}
