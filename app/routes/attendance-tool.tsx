import { useRef } from "react";
import { isMemberId, isUuid } from "~/lib/ids";
import { data, Form, useNavigation, useSubmit } from "react-router";
import type { Route } from "./+types/attendance-tool";
import { EventSelect } from "~/components/EventSelect";
import { SavedNotice } from "~/components/SavedNotice";
import { Alert } from "~/components/ui/Alert";
import { readForm, searchTermOf } from "~/forms/kernel";
import { CABINS, isCabin } from "~/game/cabins";
import { USER_SEARCH_DEBOUNCE_MS, USER_SEARCH_MIN_CHARS } from "~/game/rules";
import { addAttendance, listAttendanceEvents, searchUsers } from "~/server/attendance.server";
import { requireAccess } from "~/server/guards.server";
import { logger } from "~/server/logger.server";

const BOTH = "Please select both an event and a user";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  const url = new URL(request.url);
  const q = searchTermOf(url);
  try {
    const [events, matches] = await Promise.all([listAttendanceEvents(), searchUsers(q)]);
    return { events, matches, q, eventId: url.searchParams.get("event") ?? "", failed: false };
  } catch (error) {
    logger.error({ err: error }, "loading the attendance tool failed");
    return { events: [], matches: [], q, eventId: "", failed: true };
  }
}

type ActionData = { ok?: boolean; message?: string; at?: number };

export async function action({ request, context }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  const fields = await readForm(request);
  // A malformed event id is treated like none chosen, never passed to the database.
  if (!isUuid(fields.eventId) || !isMemberId(fields.userId)) return data<ActionData>({ message: BOTH }, { status: 400 });
  const cabin = fields.cabin && isCabin(fields.cabin) ? fields.cabin : null;
  if (fields.cabin && !cabin) return data<ActionData>({ message: "Please choose a cabin from the list." }, { status: 400 });
  try {
    const outcome = await addAttendance(manager, { eventId: fields.eventId, userId: fields.userId, cabin });
    if (outcome === "not-found") return data<ActionData>({ message: BOTH }, { status: 400 });
    if (outcome === "duplicate") return data<ActionData>({ message: "Failed to add attendance. The user might already be registered for this event." }, { status: 409 });
    return data<ActionData>({ ok: true, at: Date.now() });
  } catch (error) {
    logger.error({ err: error }, "adding attendance failed");
    return data<ActionData>({ message: "Failed to add attendance. The user might already be registered for this event." }, { status: 500 });
  }
}

export default function AttendanceTool({ loaderData, actionData }: Route.ComponentProps) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-center text-5xl">Attendance Tool</h1>
      <hr className="divider my-6" />
      <div className="panel flex flex-col gap-5">
        {actionData?.ok ? <SavedNotice key={actionData.at} message="Attendance added successfully!" /> : null}
        {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
        {loaderData.failed ? <Alert kind="error">Failed to load data</Alert> : null}
        <Form
          method="get"
          role="search"
          className="flex flex-col gap-1"
          onChange={(event) => {
            const form = event.currentTarget;
            clearTimeout(timer.current);
            // Search as the manager types, after a pause, keeping the page's other choices.
            timer.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), USER_SEARCH_DEBOUNCE_MS);
          }}
        >
          <label htmlFor="member-search" className="font-bold">
            Find a member
          </label>
          <div className="flex gap-2">
            <input id="member-search" name="q" type="search" defaultValue={loaderData.q} placeholder="First name, last name or email" aria-describedby="member-search-hint" className="w-full rounded-md border border-timber bg-ink px-3 py-2" />
            <button type="submit" className="btn btn-secondary">
              Search
            </button>
          </div>
          <p id="member-search-hint" className="text-sm text-dust">
            Type at least {USER_SEARCH_MIN_CHARS} characters. Up to 10 matches are shown.
          </p>
        </Form>
        <Form method="post" className="flex flex-col gap-5">
          <EventSelect events={loaderData.events} defaultValue={loaderData.eventId} emptyText="No events yet" />
          <fieldset>
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
                      <input type="radio" name="userId" value={match.id} className="mt-1.5" />
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
            <select id="cabin" name="cabin" defaultValue="" className="w-full rounded-md border border-timber bg-ink px-3 py-2">
              <option value="">Not assigned</option>
              {CABINS.map((cabin) => (
                <option key={cabin}>{cabin}</option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn btn-primary self-start" disabled={busy}>
            Add Attendance
          </button>
        </Form>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Attendance Tool · Hopewell" }];
