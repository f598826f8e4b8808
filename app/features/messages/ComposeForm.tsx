import { Form } from "react-router";
import { Field, FieldError, inputClass } from "~/components/ui/Field";
import { SubmitButton } from "~/components/ui/SubmitButton";
import { TextAreaField } from "~/components/ui/TextAreaField";
import { AUDIENCE_KINDS } from "~/game/messages";
import { formatEventDate } from "~/lib/dates";
import { FORMATTED_TEXT_HINT, FORMATTED_TEXT_MAX } from "~/lib/formatted-text.limits";
import { countOf } from "~/lib/plural";
import type { FieldErrors } from "~/web/forms/kernel";
import type { ComposeValues, EventChoice } from "./compose-page.server";
import type { ComposePreview } from "./compose-preview.server";
import { AUDIENCES, FIELDS_HINT, MUST_REACH_HINT, MUST_REACH_LABEL, SUBJECT_MAX } from "./messages.form";

/** A labelled choice with its error announced with it. */
function Select({
  id,
  label,
  hint,
  error,
  defaultValue,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  defaultValue: string;
  children: React.ReactNode;
}) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-bold text-parchment">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-dust">
          {hint}
        </p>
      ) : null}
      <select
        id={id}
        name={id}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={inputClass}
      >
        {children}
      </select>
      {error ? <FieldError id={`${id}-error`}>{error}</FieldError> : null}
    </div>
  );
}

/**
 * The compose form: who it is for, the message, and the three presses. "Send" is offered once a
 * preview has shown who will receive it, and names how many; the form carries that preview's
 * digest of the group and the page's one-time key.
 */
export function ComposeForm({
  events,
  discordOffered,
  values,
  errors = {},
  preview,
  busy,
}: {
  events: EventChoice[];
  discordOffered: boolean;
  values: ComposeValues;
  errors?: FieldErrors;
  preview?: ComposePreview;
  busy: boolean;
}) {
  return (
    <Form method="post" noValidate className="panel flex flex-col gap-5">
      <input type="hidden" name="submissionKey" value={values.submissionKey} />
      {preview ? <input type="hidden" name="checked" value={preview.checked} /> : null}
      <Select id="audience" label="Who it is for" error={errors.audience} defaultValue={values.audience}>
        {AUDIENCE_KINDS.map((kind) => (
          <option key={kind} value={kind}>
            {AUDIENCES[kind].label}
          </option>
        ))}
      </Select>
      <Select
        id="eventId"
        label="Event"
        hint="For the groups about an event."
        error={errors.eventId}
        defaultValue={values.eventId}
      >
        <option value="">{events.length === 0 ? "No events yet" : "Choose an event…"}</option>
        {events.map((event) => (
          <option key={event.id} value={event.id}>
            {`${event.title} (${formatEventDate(event.date)})${event.cancelled ? ", cancelled" : ""}`}
          </option>
        ))}
      </Select>
      <Field
        label="Subject"
        name="subject"
        defaultValue={values.subject}
        maxLength={SUBJECT_MAX}
        error={errors.subject}
        autoComplete="off"
      />
      <TextAreaField
        label="Message"
        name="body"
        rows={12}
        maxLength={FORMATTED_TEXT_MAX}
        hint={
          <>
            {FORMATTED_TEXT_HINT} {FIELDS_HINT}
          </>
        }
        defaultValue={values.body}
        error={errors.body}
      />
      <label className="flex items-start gap-2">
        <input type="checkbox" name="mustReach" defaultChecked={values.mustReach} className="mt-1 size-5 shrink-0" />
        <span>
          {MUST_REACH_LABEL}
          <span className="block text-sm text-dust">{MUST_REACH_HINT}</span>
        </span>
      </label>
      {discordOffered ? (
        <label className="flex items-start gap-2">
          <input type="checkbox" name="discord" defaultChecked={values.discord} className="mt-1 size-5 shrink-0" />
          Also post it to the club&apos;s Discord channel
        </label>
      ) : null}
      {/* Preview comes first: Enter in the subject presses it, never "Send". */}
      <div className="flex flex-wrap gap-3">
        <SubmitButton name="intent" value="preview" className="btn btn-secondary" busy={busy}>
          Preview
        </SubmitButton>
        <SubmitButton name="intent" value="test" className="btn btn-secondary" busy={busy}>
          Send a test to me
        </SubmitButton>
        {preview && preview.recipients.length > 0 ? (
          <SubmitButton name="intent" value="send" className="btn btn-primary" busy={busy}>
            {`Send to ${countOf(preview.recipients.length, "member")}`}
          </SubmitButton>
        ) : null}
      </div>
    </Form>
  );
}
