import { useRef } from "react";
import { isMemberId, isUuid } from "~/lib/ids";
import { data, Form, useNavigation, useSubmit } from "react-router";
import type { Route } from "./+types/attendance-tool";
import { EventSelect } from "~/features/events/EventSelect";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { readForm, searchTermOf } from "~/web/forms/kernel";
import { formatEventDate } from "~/lib/dates";
import { USER_SEARCH_DEBOUNCE_MS, USER_SEARCH_MIN_CHARS } from "~/game/rules";
import {
  addAttendance,
  cabinToGive,
  eventRegistrations,
  searchUsers,
  type RegistrationWarning,
} from "~/features/attendance/attendance-tool.server";
import {
  registeredText,
  Registrations,
  ToolAnswer,
  useAnswerAction,
  type Added,
  type Choices,
  type Warning,
} from "~/features/attendance/ToolParts";
import { listEventsNotCancelled } from "~/features/events/events.server";
import { cabinsOffered } from "~/features/club-facts/cabins/cabins.server";
import { failSafely } from "~/web/actions.server";
import { requireAccess } from "~/web/guards.server";

const BOTH = "Please select both an event and a user";
const DUPLICATE = "Failed to add attendance. The user might already be registered for this event.";

/** The form's choices as the URL carries them: a search without JavaScript keeps the others. */
function choicesIn(url: URL): Choices {
  const pick = (name: string) => (url.searchParams.get(name) ?? "").slice(0, 100);
  return { eventId: pick("eventId") || pick("event"), userId: pick("userId"), cabin: pick("cabin") };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  const url = new URL(request.url);
  const q = searchTermOf(url);
  const choices = choicesIn(url);
  const [events, matches, registrations, cabins] = await Promise.all([
    listEventsNotCancelled(),
    searchUsers(q),
    eventRegistrations(choices.eventId),
    cabinsOffered(),
  ]);
  return { events, matches, q, choices, registrations, cabins };
}

/**
 * `choices` is what the form shows next: after an add, the event only, ready for the next member.
 * `registrations` are those of the event posted, which the address may not name.
 */
type ActionData = {
  added?: Added;
  message?: string;
  warning?: Warning;
  choices: Choices;
  at: number;
  registrations?: Awaited<ReturnType<typeof eventRegistrations>>;
};

const WARNINGS: Record<RegistrationWarning, (name: string) => string> = {
  applicant: (name) => `${name} is still an applicant: their application has not been accepted.`,
  rejected: (name) => `${name}'s application was rejected.`,
};

export async function action({ request, context }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  const fields = await readForm(request);
  const posted: Choices = { eventId: fields.eventId ?? "", userId: fields.userId ?? "", cabin: fields.cabin ?? "" };
  const reply = async (body: Omit<ActionData, "choices" | "at">, status = 200, choices = posted) =>
    data<ActionData>(
      { ...body, choices, at: Date.now(), registrations: await eventRegistrations(posted.eventId) },
      { status },
    );
  // A malformed event id is treated like none chosen, never passed to the database.
  if (!isUuid(fields.eventId) || !isMemberId(fields.userId)) return reply({ message: BOTH }, 400);
  const given = await cabinToGive(fields.cabin);
  if ("message" in given) return reply({ message: given.message }, 400);
  const entry = {
    eventId: fields.eventId,
    userId: fields.userId,
    cabin: given.cabin,
    confirmed: fields.confirm === "yes",
  };
  return failSafely<ActionData>(
    "adding attendance",
    { message: DUPLICATE, choices: posted, at: Date.now() },
    async () => {
      const added = await addAttendance(manager, entry);
      if (added.outcome === "not-found") return reply({ message: BOTH }, 400);
      // The specification's words first; then who and where, since the list beside says so too.
      if (added.outcome === "duplicate") return reply({ message: `${DUPLICATE} ${registeredText(added, true)}` }, 409);
      // Nothing is recorded until the manager confirms: the answer says why and offers the button.
      if (added.outcome === "unconfirmed")
        return reply({ warning: { text: WARNINGS[added.warning](added.name), name: added.name } }, 409);
      // The next member is searched for and chosen afresh; the event usually stays the same.
      const { name, event } = added;
      return reply({ added: { userId: entry.userId, name, event } }, 200, {
        eventId: posted.eventId,
        userId: "",
        cabin: "",
      });
    },
  );
}

export default function AttendanceTool({ loaderData, actionData }: Route.ComponentProps) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const choices = actionData?.choices ?? loaderData.choices;
  // A new answer from the action redraws the member and cabin choices from `choices`,
  // so a successful add clears them in the browser as it does in a page drawn by the server.
  const drawn = actionData?.at ?? "loaded";
  const action = useAnswerAction();
  // Read again as the form's choices change, so the list beside is always the chosen event's.
  const readAgain = (form: HTMLFormElement) => submit(form, { method: "get", replace: true, preventScrollReset: true });
  return (
    <div className="mx-auto max-w-5xl px-4 py-6 sm:py-10">
      <h1 className="text-center text-4xl sm:text-5xl">Attendance Tool</h1>
      <hr className="divider my-4 sm:my-6" />
      <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_18rem] md:items-start lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="panel flex flex-col gap-5">
          {/* One form: Search sends everything by GET, so without JavaScript a search keeps the event and cabin. */}
          <Form method="post" action={action} className="flex flex-col gap-5">
            <EventSelect
              events={loaderData.events}
              defaultValue={choices.eventId}
              emptyText="No events yet"
              onChange={(event) => readAgain(event.currentTarget.form!)}
            />
            <div role="search" className="flex flex-col gap-1">
              <label htmlFor="member-search" className="font-bold">
                Find a member
              </label>
              <div className="flex gap-2">
                <input
                  id="member-search"
                  name="q"
                  type="search"
                  defaultValue={loaderData.q}
                  placeholder="First name, last name or email"
                  aria-describedby="member-search-hint"
                  className="w-full rounded-md border border-timber bg-ink px-3 py-2"
                  onChange={(event) => {
                    const form = event.currentTarget.form!;
                    clearTimeout(timer.current);
                    // Search as the manager types, after a pause, keeping the page's other choices.
                    timer.current = setTimeout(() => readAgain(form), USER_SEARCH_DEBOUNCE_MS);
                  }}
                />
                {/* First in the form, so Enter in the search box searches rather than adds. */}
                <button type="submit" formMethod="get" formNoValidate className="btn btn-secondary">
                  Search
                </button>
              </div>
              <p id="member-search-hint" className="text-sm text-dust">
                Type at least {USER_SEARCH_MIN_CHARS} characters. Up to 10 matches are shown.
              </p>
            </div>
            <fieldset key={`member-${drawn}`}>
              <legend className="font-bold">Member</legend>
              {loaderData.q.trim().length < USER_SEARCH_MIN_CHARS ? (
                <p className="text-sm text-dust">Search above to choose a member.</p>
              ) : loaderData.matches.length === 0 ? (
                <p className="text-sm text-dust" role="status">{`No members match “${loaderData.q}”.`}</p>
              ) : (
                <ul className="mt-2 flex flex-col gap-2" aria-live="polite">
                  {loaderData.matches.map((match) => (
                    <li key={match.id}>
                      <label className="flex cursor-pointer gap-3 rounded-md border border-timber bg-ink p-3 has-[:checked]:border-brass">
                        <input
                          type="radio"
                          name="userId"
                          value={match.id}
                          defaultChecked={match.id === choices.userId}
                          className="mt-1.5"
                        />
                        <span>
                          <span className="font-bold">{`${match.firstName} ${match.lastName}`}</span>
                          <span className="block text-sm text-dust">{`${match.characterName ?? "No character"} · ${match.email}`}</span>
                        </span>
                      </label>
                    </li>
                  ))}
                </ul>
              )}
            </fieldset>
            <div className="flex flex-col gap-1">
              <label htmlFor="cabin" className="font-bold">
                Cabin (optional)
              </label>
              <select
                key={`cabin-${drawn}`}
                id="cabin"
                name="cabin"
                defaultValue={loaderData.cabins.includes(choices.cabin) ? choices.cabin : ""}
                className="w-full rounded-md border border-timber bg-ink px-3 py-2"
              >
                <option value="">Not assigned</option>
                {loaderData.cabins.map((cabin) => (
                  <option key={cabin}>{cabin}</option>
                ))}
              </select>
            </div>
            <button type="submit" className="btn btn-primary self-start" disabled={busy}>
              Add Attendance
            </button>
          </Form>
          <ToolAnswer answer={actionData} busy={busy} />
        </div>
        <Registrations
          event={actionData?.registrations ?? loaderData.registrations}
          justAdded={actionData?.added?.userId ?? null}
        />
      </div>
      {loaderData.events.length > 0 ? (
        <section aria-labelledby="event-day-sheets" className="panel mt-6 flex flex-col gap-3">
          <h2 id="event-day-sheets" className="text-2xl">
            Event-Day Sheets
          </h2>
          <ul className="flex flex-col gap-2">
            {loaderData.events.map((event) => (
              <li key={event.id}>
                {/* A whole-page load, so the sheet's offline copy is kept. */}
                <a
                  href={`/tools/event-day/${event.id}`}
                >{`Event-day sheet: ${event.title} (${formatEventDate(event.date)})`}</a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Attendance Tool · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Attendance Tool", "Failed to load data");
