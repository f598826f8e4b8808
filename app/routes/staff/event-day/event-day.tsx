import { useState } from "react";
import { data, redirect } from "react-router";
import type { Route } from "./+types/event-day";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { ICON_SPRITE_URL } from "~/components/Icon";
import { COSTUME_STATUS_LABELS } from "~/game/costume";
import { formatDollars } from "~/game/merchant";
import { merchantCurrency } from "~/features/club-facts/merchant/merchant.server";
import { formatClubClockAndDay, formatEventDate } from "~/lib/dates";
import { isMemberId, isUuid } from "~/lib/ids";
import { countOf } from "~/lib/plural";
import { SHEET_HEADER } from "~/features/event-day/event-day-offline";
import { HANDED_OUT_MESSAGES, HandedOutForm } from "~/features/review/handed-out.form";
import { parseForm } from "~/web/forms/kernel";
import { eventDaySheet, type SheetAttendee } from "~/features/event-day/event-day.server";
import {
  attendeeAnchor,
  Contact,
  Orders,
  type SheetNote,
  useFocusAfterHandingOut,
  useOfflineCopy,
  useUnsentWhileOffline,
} from "~/features/event-day/SheetParts";
import { FINDER_ID, JumpLink, SheetFinder } from "~/features/event-day/SheetFinder";
import { cabinAnchor, filterSheet, NO_FILTER } from "~/features/event-day/sheet-filter";
import { requireAccess } from "~/web/guards.server";
import { setHandedOut } from "~/features/review/handed-out.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const manager = requireAccess(context, request, "manager");
  const [sheet, currency] = await Promise.all([eventDaySheet(manager, params.eventId), merchantCurrency()]);
  if (!sheet) throw data("Not found", { status: 404 });
  // Marks a manager's sheet: the offline copy (public/event-day-sw.js) keeps nothing else.
  return data(
    { ...sheet, currency, note: sheetNote(sheet.cabins, new URL(request.url).searchParams) },
    { headers: { [SHEET_HEADER]: "manager" } },
  );
}

/**
 * The address's note on what was just done to an attendee's orders, so the page says it:
 * `?handedOut=<their id>&order=<the order's id>` after "Handed out" (the order's id lets the
 * row offer Undo), `?undone=<their id>&order=<the order's id>` after Undo (the keyboard goes
 * to that order's button).
 */
const NOTE_PARAMS = { handedOut: "handedOut", undone: "undone", order: "order" } as const;

function sheetNote(cabins: { attendees: SheetAttendee[] }[], params: URLSearchParams): SheetNote | null {
  const done = params.has(NOTE_PARAMS.undone) ? "undone" : params.has(NOTE_PARAMS.handedOut) ? "handedOut" : null;
  if (!done) return null;
  const userId = params.get(NOTE_PARAMS[done]);
  if (!isMemberId(userId)) return null;
  const attendee = cabins.flatMap((cabin) => cabin.attendees).find((one) => one.userId === userId);
  if (!attendee) return null;
  const orderId = params.get(NOTE_PARAMS.order);
  const named = isUuid(orderId) ? orderId : null;
  // The address is only a note: one the orders no longer bear out (the order put back or handed
  // out again since, here or on the orders review) says nothing.
  if (named && attendee.orders.some((order) => order.id === named) !== (done === "undone")) return null;
  return { done, userId, name: attendee.name, left: attendee.orders.length, orderId: named };
}

/** What is said (politely, to a screen reader) once an order is marked or unmarked: whose, and how many of theirs are left, so two presses in a row are two different messages. */
function noteText({ done, name, left }: SheetNote): string {
  const toHandOut = `${left === 0 ? "No more orders" : countOf(left, done === "handedOut" ? "more order" : "order")} to hand out to them.`;
  return done === "handedOut"
    ? `Handed out: ${name}'s order. ${toHandOut}`
    : `No longer marked as handed out: ${name}'s order. ${toHandOut}`;
}

/**
 * "Handed out" on an order, and its Undo: managers only, like the sheet. Back to the same
 * attendee's row (an anchor), where the order is gone from those still to hand out (or back
 * among them), with a note in the address so the page says what was done, with or without
 * JavaScript. An order of another event is not this sheet's to mark.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  const form = await parseForm(request, HandedOutForm);
  if (!form.ok) throw data(HANDED_OUT_MESSAGES.noSuchOrder, { status: 400 });
  const handOut = form.data.intent === "hand_out";
  const marked = await setHandedOut(manager, form.data.orderId, handOut, { eventId: params.eventId });
  if (!marked) throw data(HANDED_OUT_MESSAGES.noSuchOrder, { status: 404 });
  const note = {
    [handOut ? NOTE_PARAMS.handedOut : NOTE_PARAMS.undone]: marked.userId,
    [NOTE_PARAMS.order]: form.data.orderId,
  };
  return redirect(
    `/tools/event-day/${marked.eventId}?${new URLSearchParams(note)}#${attendeeAnchor(marked.userId)}`,
    303,
  );
}

/** The loader's mark reaches the page's own response (not only its data requests). */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const mark = loaderHeaders.get(SHEET_HEADER);
  return mark ? { [SHEET_HEADER]: mark } : new Headers();
}

/** "Fetched at 7:42 PM on Friday, Nov 27": when the club's clock read the sheet, on the server and in the browser alike. */
function fetchedAtText(iso: string): string {
  return `Fetched at ${formatClubClockAndDay(iso)}`;
}

export default function EventDay({ loaderData }: Route.ComponentProps) {
  const { event, cabins, attendees, totalCents, currency, fetchedAt } = loaderData;
  const offline = useOfflineCopy(fetchedAt);
  // The copy kept for use offline may be of the page just after a press: that is no news now.
  const note = offline ? null : loaderData.note;
  // Once per arrival at the page, whatever the signal does after.
  useFocusAfterHandingOut(loaderData.note);
  const { unsentOrder, holdWhileOffline } = useUnsentWhileOffline(offline);
  // Kept while orders are marked (the page stays), so a manager handing out goes on where they were.
  const [filter, setFilter] = useState(NO_FILTER);
  const shown = filterSheet(cabins, filter, note?.userId ?? null);
  return (
    <div className="event-day-sheet mx-auto max-w-6xl px-3 py-6 sm:px-4 sm:py-10" onSubmitCapture={holdWhileOffline}>
      <h1 className="text-center text-4xl sm:text-5xl">Event-Day Sheet</h1>
      <p className="mt-2 text-center font-display text-xl text-brass">{event.title}</p>
      <p className="text-center text-dust">{formatEventDate(event.date)}</p>
      <hr className="divider my-4 print:hidden" />
      <div className="flex flex-col gap-1 text-center">
        <p>
          <time dateTime={fetchedAt} data-testid="fetched-at" className="font-bold">
            {fetchedAtText(fetchedAt)}
          </time>
        </p>
        {offline ? (
          <p role="status" className="font-bold text-brass">
            You are offline: this is the copy kept on this device.
          </p>
        ) : null}
        <p className="text-sm text-dust print:hidden">
          For managers at the event. Each visit is recorded. Once opened, this page stays readable on this device
          without signal until you sign out.
        </p>
        {/* Always on the page, so a change of its words is read out (with JavaScript; a page loaded without it is not read out by itself, and the row says so to the eye). */}
        <p role="status" className="sr-only" data-testid="sheet-status">
          {note ? noteText(note) : unsentOrder ? HANDED_OUT_MESSAGES.offline : ""}
        </p>
      </div>
      <section
        aria-labelledby="sheet-totals"
        className="panel my-6 flex flex-wrap justify-center gap-x-8 gap-y-2 p-4 text-center"
      >
        <h2 id="sheet-totals" className="sr-only">
          Totals
        </h2>
        <p>
          <span className="block text-sm text-dust">Attendees</span>
          <span className="text-2xl font-bold">{attendees}</span>
        </p>
        <p>
          <span className="block text-sm text-dust">To collect in all</span>
          <span
            className="text-2xl font-bold"
            data-testid="total-to-collect"
          >{`${formatDollars(totalCents)} ${currency}`}</span>
        </p>
      </section>
      {cabins.length === 0 ? (
        <p className="panel text-center text-dust">Nobody is recorded for this event yet.</p>
      ) : (
        <SheetFinder shown={shown} total={attendees} filter={filter} onFilter={setFilter} />
      )}
      {cabins.length > 0 && shown.length === 0 ? (
        <p className="panel text-center text-dust">
          {filter.query.trim() ? `Nobody here matches “${filter.query.trim()}”.` : "No orders are left to hand out."}
        </p>
      ) : null}
      {shown.map(({ cabin, attendees: inCabin }) => (
        <section key={cabin} aria-labelledby={cabinAnchor(cabin)} className="sheet-cabin mb-8">
          <div className="mb-3 flex flex-wrap items-baseline justify-between gap-x-4">
            <h2 id={cabinAnchor(cabin)} tabIndex={-1} className="text-2xl">
              {cabin} <span className="font-serif text-base text-dust">{`(${inCabin.length})`}</span>
            </h2>
            <JumpLink to={FINDER_ID} className="inline-flex min-h-11 items-center text-sm print:hidden">
              Back to top<span className="sr-only">{` from ${cabin}`}</span>
            </JumpLink>
          </div>
          <table className="sheet-table w-full table-fixed border-collapse text-left">
            <thead>
              <tr className="border-b border-timber text-sm text-dust">
                <th scope="col" className="w-[22%] py-2 pr-3">
                  Attendee
                </th>
                <th scope="col" className="w-[28%] py-2 pr-3">
                  Emergency contact
                </th>
                <th scope="col" className="w-[22%] py-2 pr-3">
                  Orders to hand out
                </th>
                <th scope="col" className="w-[12%] py-2 pr-3">
                  To collect
                </th>
                <th scope="col" className="py-2">
                  Costume photo
                </th>
              </tr>
            </thead>
            <tbody>
              {inCabin.map((attendee) => (
                <tr
                  key={attendee.userId}
                  id={attendeeAnchor(attendee.userId)}
                  className="scroll-mt-4 border-b border-timber/40 align-top"
                >
                  <th scope="row" tabIndex={-1} className="py-2 pr-3 text-left font-normal" data-label="Attendee">
                    <span className="block font-bold">{attendee.name}</span>
                    <span className="block text-dust">{attendee.characterName ?? "No character"}</span>
                  </th>
                  <td className="py-2 pr-3" data-label="Emergency contact">
                    <Contact attendee={attendee} />
                  </td>
                  <td className="py-2 pr-3" data-label="Orders to hand out">
                    <Orders
                      attendee={attendee}
                      note={note?.userId === attendee.userId ? note : null}
                      unsentOrder={unsentOrder}
                    />
                  </td>
                  <td className="sheet-half py-2 pr-3 tabular-nums" data-label="To collect">
                    {attendee.dueCents > 0 ? formatDollars(attendee.dueCents) : "Nothing"}
                  </td>
                  <td className="sheet-half py-2" data-label="Costume photo">
                    {COSTUME_STATUS_LABELS[attendee.costume]}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  );
}

/**
 * The icons' sprite, named in the head so the offline copy keeps it with the sheet (its worker
 * keeps the files the head names, public/event-day-sw.js); the page's icons point into it.
 */
export const links: Route.LinksFunction = () => [
  { rel: "prefetch", href: ICON_SPRITE_URL, as: "image", type: "image/svg+xml" },
];

export const meta: Route.MetaFunction = ({ loaderData: sheet }) => [
  { title: sheet ? `Event-Day Sheet: ${sheet.event.title} · Hopewell` : "Event-Day Sheet · Hopewell" },
];

export const ErrorBoundary = pageErrorBoundary("Event-Day Sheet", "Failed to load the event-day sheet");
