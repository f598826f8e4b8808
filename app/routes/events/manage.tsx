import { data, Form, useNavigation, useSearchParams } from "react-router";
import { Link } from "~/components/Link";
import { isUuid } from "~/lib/ids";
import type { Route } from "./+types/manage";
import { formatDollars } from "~/game/merchant";
import { SavedNotice } from "~/components/SavedNotice";
import { Alert } from "~/components/ui/Alert";
import { Field, FieldError } from "~/components/ui/Field";
import { checkForm, type FieldErrors, readForm } from "~/web/forms/kernel";
import { EVENT_DATE_HINT, EventForm, notAFridayWarning } from "~/features/events/events.form";
import { EVENT_STATUSES } from "~/game/roles";
import { formatEventDate } from "~/lib/dates";
import { cancelEvent, createEvent, listAllEvents, updateEvent } from "~/features/events/events.server";
import { expireOpenCheckouts, paidTicketCount, paidTicketsWarning } from "~/features/tickets/checkout.server";
import { CancelEventConfirm } from "~/features/events/CancelEventConfirm";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { failSafely } from "~/web/actions.server";
import { requireAccess } from "~/web/guards.server";

/** Every event; with `?cancel=<id>`, that event's cancellation to confirm, with its paid tickets. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  const cancel = new URL(request.url).searchParams.get("cancel");
  const [events, paidTickets] = await Promise.all([
    listAllEvents(),
    isUuid(cancel) ? paidTicketCount(cancel) : Promise.resolve(0),
  ]);
  const toCancel = events.find((event) => event.id === cancel && event.status !== "cancelled");
  return {
    events,
    cancelling: toCancel ? { id: toCancel.id, title: toCancel.title, date: toCancel.date, paidTickets } : null,
  };
}

type ActionData = {
  intent: string;
  id?: string;
  saved?: string;
  warning?: string;
  message?: string;
  errors?: FieldErrors;
  values?: Record<string, string | undefined>;
  at?: number;
};

export async function action({ request, context }: Route.ActionArgs) {
  requireAccess(context, request, "manager");
  const fields = await readForm(request);
  const intent = fields.intent ?? "";
  const id = isUuid(fields.id) ? fields.id : undefined;
  return failSafely<ActionData>(
    "saving an event",
    { intent, id, message: "Failed to save the event. Please try again.", values: fields },
    async () => {
      if (intent === "cancel") {
        if (!id || !(await cancelEvent(id)))
          return data({ intent, message: "That event no longer exists." }, { status: 404 });
        // Nobody pays for it from here on; a payment already on its way is refunded when it arrives.
        await expireOpenCheckouts({ eventId: id });
        return data({ intent, saved: "Event cancelled.", warning: await paidTicketsWarning(id), at: Date.now() });
      }
      if (intent !== "create" && intent !== "update")
        return data({ intent, message: "That action is not available here." }, { status: 400 });
      const form = checkForm(EventForm, fields);
      if (!form.ok) return data({ intent, id, errors: form.errors, values: fields }, { status: 400 });
      if (intent === "create") {
        await createEvent(form.data);
        return data({ intent, saved: "Event added.", warning: notAFridayWarning(form.data.date), at: Date.now() });
      }
      if (!id || !(await updateEvent(id, form.data)))
        return data({ intent, message: "That event no longer exists." }, { status: 404 });
      if (form.data.status === "cancelled") await expireOpenCheckouts({ eventId: id });
      const warning =
        form.data.status === "cancelled" ? await paidTicketsWarning(id) : notAFridayWarning(form.data.date);
      return data({ intent, saved: "Changes saved successfully!", warning, at: Date.now() });
    },
  );
}

const inputClass =
  "w-full rounded-md border border-timber bg-ink px-3 py-2 text-parchment focus:border-brass aria-[invalid=true]:border-blood";

function EventFields({
  values,
  errors,
}: {
  values: Partial<Record<string, string | null | undefined>>;
  errors?: FieldErrors;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field
        label="Title"
        name="title"
        required
        defaultValue={values.title ?? ""}
        error={errors?.title}
        className="sm:col-span-2"
      />
      <Field
        label="Date"
        name="date"
        type="date"
        required
        hint={EVENT_DATE_HINT}
        defaultValue={values.date ?? ""}
        error={errors?.date}
      />
      <div className="flex flex-col gap-1">
        <label className="font-bold" htmlFor={`status-${values.id ?? "new"}`}>
          Status
        </label>
        <select
          id={`status-${values.id ?? "new"}`}
          name="status"
          defaultValue={values.status ?? "future"}
          className={inputClass}
        >
          {EVENT_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status[0]!.toUpperCase() + status.slice(1)}
            </option>
          ))}
        </select>
        {errors?.status ? <FieldError id={`status-error-${values.id ?? "new"}`}>{errors.status}</FieldError> : null}
      </div>
      <Field
        label="Ticket link"
        name="ticketUrl"
        type="url"
        placeholder="https://"
        hint="Where members buy a ticket. Leave empty to hide the Purchase Ticket button."
        defaultValue={values.ticketUrl ?? ""}
        error={errors?.ticketUrl}
        className="sm:col-span-2"
      />
      <Field
        label="Ticket price (dollars)"
        name="ticketPriceCents"
        inputMode="decimal"
        placeholder="45.00"
        hint="Sold on the site through Stripe when its keys are set (it then replaces the ticket link). Leave empty to sell by the link only."
        defaultValue={values.ticketPriceCents ?? ""}
        error={errors?.ticketPriceCents}
      />
      <Field
        label="Places"
        name="ticketPlaces"
        inputMode="numeric"
        hint="How many tickets may be sold. Leave empty for no limit."
        defaultValue={values.ticketPlaces ?? ""}
        error={errors?.ticketPlaces}
      />
    </div>
  );
}

export default function ManageEvents({ loaderData, actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const editing =
    actionData?.intent === "update" && !actionData.saved ? actionData.id : (params.get("edit") ?? undefined);
  const createFailed = actionData?.intent === "create" && !actionData.saved;

  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-center text-5xl">Manage Events</h1>
      <hr className="divider my-6" />
      <div className="flex flex-col gap-6">
        {actionData?.saved ? <SavedNotice key={actionData.at} message={actionData.saved} /> : null}
        {actionData?.warning ? <Alert kind="warning">{actionData.warning}</Alert> : null}
        {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}

        <section aria-labelledby="new-event" className="panel">
          <h2 id="new-event" className="text-2xl">
            Add an event
          </h2>
          <Form
            method="post"
            noValidate
            className="mt-4 flex flex-col gap-4"
            key={actionData?.intent === "create" && actionData.saved ? actionData.at : "new"}
          >
            <input type="hidden" name="intent" value="create" />
            <EventFields
              values={createFailed ? (actionData?.values ?? {}) : {}}
              errors={createFailed ? actionData?.errors : undefined}
            />
            <button type="submit" className="btn btn-primary self-start" disabled={busy}>
              Add Event
            </button>
          </Form>
        </section>

        <section aria-labelledby="all-events" className="flex flex-col gap-4">
          <h2 id="all-events" className="text-2xl">
            All events
          </h2>
          {loaderData.events.length === 0 ? <p className="text-dust">No events yet.</p> : null}
          <ul className="flex flex-col gap-4">
            {loaderData.events.map((event) => (
              <li key={event.id} className="panel">
                {editing === event.id ? (
                  <Form method="post" noValidate className="flex flex-col gap-4">
                    <input type="hidden" name="intent" value="update" />
                    <input type="hidden" name="id" value={event.id} />
                    <EventFields
                      values={
                        actionData?.intent === "update" && actionData.values
                          ? { ...actionData.values, id: event.id }
                          : {
                              id: event.id,
                              title: event.title,
                              date: event.date,
                              status: event.status,
                              ticketUrl: event.ticketUrl,
                              ticketPriceCents:
                                event.ticketPriceCents === null ? "" : (event.ticketPriceCents / 100).toFixed(2),
                              ticketPlaces: event.ticketPlaces === null ? "" : String(event.ticketPlaces),
                            }
                      }
                      errors={actionData?.intent === "update" ? actionData.errors : undefined}
                    />
                    <div className="flex gap-3">
                      <button type="submit" className="btn btn-primary" disabled={busy}>
                        Save
                      </button>
                      <Link to="/events/manage" className="btn btn-secondary">
                        Cancel
                      </Link>
                    </div>
                  </Form>
                ) : loaderData.cancelling?.id === event.id ? (
                  <CancelEventConfirm event={loaderData.cancelling} busy={busy} />
                ) : (
                  <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
                    <div>
                      <h3 className="text-xl">{event.title}</h3>
                      <p className="text-dust">
                        <time dateTime={event.date}>{formatEventDate(event.date)}</time> ·{" "}
                        <span className="capitalize">{event.status}</span>
                        {event.ticketUrl ? " · ticket link set" : " · no ticket link"}
                        {event.ticketPriceCents !== null
                          ? ` · tickets ${formatDollars(event.ticketPriceCents)}${event.ticketPlaces !== null ? `, ${event.ticketPlaces} places` : ""}`
                          : null}
                      </p>
                    </div>
                    <div className="flex flex-wrap gap-2">
                      <Link to={`?edit=${event.id}`} className="btn btn-secondary" aria-label={`Edit ${event.title}`}>
                        Edit
                      </Link>
                      {event.status !== "cancelled" ? (
                        // Asked first on a step of its own (CancelEventConfirm), with or without JavaScript.
                        <Link
                          to={`?cancel=${event.id}`}
                          preventScrollReset
                          className="btn btn-danger"
                          aria-label={`Cancel event: ${event.title}`}
                        >
                          Cancel event
                        </Link>
                      ) : null}
                    </div>
                  </div>
                )}
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Manage Events · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Manage Events", "Failed to load events");
