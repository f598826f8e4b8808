import { FieldError } from "~/components/ui/Field";
import { MarkedLabel } from "~/components/ui/Required";
import { formatEventDate } from "~/lib/dates";

type EventOption = { id: string; title: string; date: string };

/** A labelled choice of event, showing each event's title and date; `required` marks it so (RequiredNote says what the mark means). */
export function EventSelect({
  events,
  defaultValue,
  error,
  emptyText,
  onChange,
  required,
}: {
  events: EventOption[];
  defaultValue?: string;
  error?: string;
  emptyText: string;
  onChange?: (event: React.ChangeEvent<HTMLSelectElement>) => void;
  required?: boolean;
}) {
  return (
    <div className="flex flex-col gap-1">
      <MarkedLabel marked={required}>
        <label htmlFor="eventId" className="font-bold">
          Event
        </label>
      </MarkedLabel>
      <select
        id="eventId"
        name="eventId"
        defaultValue={defaultValue ?? ""}
        onChange={onChange}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "eventId-error" : undefined}
        className="w-full rounded-md border border-timber bg-ink px-3 py-2 text-parchment focus:border-brass aria-[invalid=true]:border-blood"
      >
        <option value="">{events.length === 0 ? emptyText : "Choose an event…"}</option>
        {events.map((event) => (
          <option key={event.id} value={event.id}>
            {event.title} ({formatEventDate(event.date)})
          </option>
        ))}
      </select>
      {error ? <FieldError id="eventId-error">{error}</FieldError> : null}
    </div>
  );
}
