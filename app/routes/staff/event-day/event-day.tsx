import { Phone } from "lucide-react";
import { useEffect, useRef, useState, useSyncExternalStore, type FormEvent } from "react";
import { data, Form, redirect, useLocation } from "react-router";
import type { Route } from "./+types/event-day";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { COSTUME_STATUS_LABELS } from "~/game/costume";
import { CURRENCY_NAME, formatDollars, merchantItem } from "~/game/merchant";
import { formatClubClock, formatEventDate } from "~/lib/dates";
import { isMemberId, isUuid } from "~/lib/ids";
import { countOf } from "~/lib/plural";
import { EVENT_DAY_SCOPE, EVENT_DAY_WORKER, SHEET_HEADER } from "~/features/event-day/event-day-offline";
import { HANDED_OUT_MESSAGES, HandedOutForm } from "~/features/review/handed-out.form";
import { parseForm } from "~/web/forms/kernel";
import { eventDaySheet, type SheetAttendee } from "~/features/event-day/event-day.server";
import { requireAccess } from "~/web/guards.server";
import { setHandedOut } from "~/features/review/handed-out.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const manager = requireAccess(context, request, "manager");
  const sheet = await eventDaySheet(manager, params.eventId);
  if (!sheet) throw data("Not found", { status: 404 });
  // Marks a manager's sheet: the offline copy (public/event-day-sw.js) keeps nothing else.
  return data({ ...sheet, note: sheetNote(sheet.cabins, new URL(request.url).searchParams) }, { headers: { [SHEET_HEADER]: "manager" } });
}

/**
 * The address's note on what was just done to an attendee's orders, so the page says it:
 * `?handedOut=<their id>&order=<the order's id>` after "Handed out" (the order's id lets the
 * row offer Undo), `?undone=<their id>&order=<the order's id>` after Undo (the keyboard goes
 * to that order's button).
 */
const NOTE_PARAMS = { handedOut: "handedOut", undone: "undone", order: "order" } as const;

type SheetNote = { done: "handedOut" | "undone"; userId: string; name: string; left: number; orderId: string | null };

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
  return done === "handedOut" ? `Handed out: ${name}'s order. ${toHandOut}` : `No longer marked as handed out: ${name}'s order. ${toHandOut}`;
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
  const note = { [handOut ? NOTE_PARAMS.handedOut : NOTE_PARAMS.undone]: marked.userId, [NOTE_PARAMS.order]: form.data.orderId };
  return redirect(`/tools/event-day/${marked.eventId}?${new URLSearchParams(note)}#${attendeeAnchor(marked.userId)}`, 303);
}

/** The id of an attendee's row, which marking an order returns to. */
function attendeeAnchor(userId: string): string {
  return `attendee-${userId}`;
}

/** The loader's mark reaches the page's own response (not only its data requests). */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const mark = loaderHeaders.get(SHEET_HEADER);
  return mark ? { [SHEET_HEADER]: mark } : new Headers();
}

/** "Fetched at 7:42 PM on Friday, Nov 27": when the club's clock read the sheet, on the server and in the browser alike. */
function fetchedAtText(iso: string): string {
  return `Fetched at ${formatClubClock(iso)}`;
}

/**
 * Keeps this sheet for use without signal: the worker, scoped to the sheets only, stores each
 * sheet a manager fetches. The first visit is not yet through the worker, so it is asked to
 * fetch this page once for itself. With scripts, "Handed out" and Undo read the sheet again
 * without loading the page, which the worker does not see: after each such reading it is asked
 * to fetch the page again, so the copy offline shows what was handed out.
 */
function useOfflineCopy(fetchedAt: string) {
  const firstReading = useRef(fetchedAt);
  useEffect(() => {
    if (fetchedAt === firstReading.current || !("serviceWorker" in navigator) || !navigator.onLine) return;
    void navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({ type: "keep", url: location.pathname })).catch(() => {});
  }, [fetchedAt]);
  useEffect(() => {
    if (!("serviceWorker" in navigator) || !navigator.onLine) return;
    const controlled = Boolean(navigator.serviceWorker.controller);
    void navigator.serviceWorker
      .register(EVENT_DAY_WORKER, { scope: EVENT_DAY_SCOPE })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        if (!controlled) registration.active?.postMessage({ type: "keep", url: location.pathname });
      })
      .catch(() => {});
  }, []);
  return useSyncExternalStore(subscribeToNetwork, () => !navigator.onLine, () => false);
}

/**
 * After "Handed out" or Undo, the pressed button is gone: the keyboard goes to the order just put
 * back after Undo, or else to the attendee's next order to hand out, or else to their name at the
 * head of the row, rather than falling to the top of the page. On each arrival with the note, not
 * only the first.
 */
function useFocusAfterHandingOut(note: SheetNote | null) {
  const { key } = useLocation();
  const userId = note?.userId;
  const putBack = note?.done === "undone" ? note.orderId : null;
  useEffect(() => {
    if (!userId) return;
    const row = document.getElementById(attendeeAnchor(userId));
    const next =
      (putBack ? document.getElementById(handOutButtonId(putBack)) : null) ??
      row?.querySelector<HTMLElement>('button[name="intent"][value="hand_out"]') ??
      row?.querySelector<HTMLElement>("th");
    next?.focus();
  }, [key, userId, putBack]);
}

/** The id of an order's "Handed out" button, which the keyboard is given back to after Undo. */
function handOutButtonId(orderId: string): string {
  return `hand-out-${orderId}`;
}

/**
 * "Handed out" pressed without signal (the offline copy, scripts running) is not sent: the press
 * would fail and leave the site's error page in place of the sheet. The order's row says so
 * instead, until the signal is back. One handler for the whole sheet, before the form's own.
 */
function useUnsentWhileOffline(offline: boolean) {
  const [unsentOrder, setUnsentOrder] = useState<string | null>(null);
  // Signal back: the note goes, and does not come back with the next loss of signal.
  if (!offline && unsentOrder !== null) setUnsentOrder(null);
  function holdWhileOffline(event: FormEvent<HTMLDivElement>) {
    if (navigator.onLine || !(event.target instanceof HTMLFormElement)) return;
    event.preventDefault();
    const orderId = new FormData(event.target).get("orderId");
    setUnsentOrder(typeof orderId === "string" ? orderId : null);
  }
  return { unsentOrder, holdWhileOffline };
}

function subscribeToNetwork(changed: () => void) {
  window.addEventListener("online", changed);
  window.addEventListener("offline", changed);
  return () => {
    window.removeEventListener("online", changed);
    window.removeEventListener("offline", changed);
  };
}

function Contact({ attendee }: { attendee: SheetAttendee }) {
  const contact = attendee.emergencyContact;
  return (
    <div className="flex flex-col gap-1">
      {contact ? (
        <>
          <span className="font-bold">{contact.name}</span>
          <a href={`tel:${contact.phone.replace(/[^\d+]/g, "")}`} className="inline-flex items-center gap-1 tabular-nums">
            <Phone aria-hidden="true" className="size-4 print:hidden" />
            <span>
              <span className="sr-only">Call {contact.name} on </span>
              {contact.phone}
            </span>
          </a>
        </>
      ) : (
        <span className="font-bold text-blood">No emergency contact</span>
      )}
      {attendee.email ? (
        <a href={`mailto:${attendee.email}`} className="text-sm text-dust [overflow-wrap:anywhere]">
          {attendee.email}
        </a>
      ) : null}
    </div>
  );
}

/**
 * Each order still to hand out, with a button (a plain form: it works without JavaScript) to mark
 * it given; after a press, the attendee's row says the order was marked, with an Undo for a
 * press on the wrong row, and after Undo that it no longer is.
 */
function Orders({ attendee, note, unsentOrder }: { attendee: SheetAttendee; note: SheetNote | null; unsentOrder: string | null }) {
  return (
    <div className="flex flex-col gap-2">
      {note ? (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 print:hidden">
          <p className="font-bold text-sage">{note.done === "handedOut" ? HANDED_OUT_MESSAGES.handedOut : HANDED_OUT_MESSAGES.undone}</p>
          {note.done === "handedOut" && note.orderId ? (
            <Form method="post">
              <input type="hidden" name="orderId" value={note.orderId} />
              <button type="submit" name="intent" value="undo_hand_out" className="btn btn-secondary px-3 py-1 text-sm">
                Undo<span className="sr-only">{` handed out for ${attendee.name}'s order`}</span>
              </button>
            </Form>
          ) : null}
        </div>
      ) : null}
      {attendee.orders.length === 0 ? (
        <span className="text-dust">No orders</span>
      ) : (
        <ul className="flex flex-col gap-2">
          {attendee.orders.map((order, index) => (
            <li key={order.id} className="flex flex-col gap-1">
              <ul>
                {Object.entries(order.items).map(([key, quantity]) => (
                  <li key={key}>{`${quantity} × ${merchantItem(key)?.name ?? key}`}</li>
                ))}
              </ul>
              <Form method="post" className="print:hidden">
                <input type="hidden" name="orderId" value={order.id} />
                <button type="submit" id={handOutButtonId(order.id)} name="intent" value="hand_out" className="btn btn-secondary px-3 py-1 text-sm">
                  Handed out<span className="sr-only">{`: ${attendee.name}'s order${attendee.orders.length > 1 ? ` ${index + 1} of ${attendee.orders.length}` : ""}`}</span>
                </button>
              </Form>
              {order.id === unsentOrder ? <p className="font-bold text-blood print:hidden">{HANDED_OUT_MESSAGES.offline}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export default function EventDay({ loaderData }: Route.ComponentProps) {
  const { event, cabins, attendees, totalCents, fetchedAt } = loaderData;
  const offline = useOfflineCopy(fetchedAt);
  // The copy kept for use offline may be of the page just after a press: that is no news now.
  const note = offline ? null : loaderData.note;
  // Once per arrival at the page, whatever the signal does after.
  useFocusAfterHandingOut(loaderData.note);
  const { unsentOrder, holdWhileOffline } = useUnsentWhileOffline(offline);
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
          For managers at the event. Each visit is recorded. Once opened, this page stays readable on this device without signal until you sign out.
        </p>
        {/* Always on the page, so a change of its words is read out (with JavaScript; a page loaded without it is not read out by itself, and the row says so to the eye). */}
        <p role="status" className="sr-only" data-testid="sheet-status">
          {note ? noteText(note) : unsentOrder ? HANDED_OUT_MESSAGES.offline : ""}
        </p>
      </div>
      <section aria-labelledby="sheet-totals" className="panel my-6 flex flex-wrap justify-center gap-x-8 gap-y-2 p-4 text-center">
        <h2 id="sheet-totals" className="sr-only">
          Totals
        </h2>
        <p>
          <span className="block text-sm text-dust">Attendees</span>
          <span className="text-2xl font-bold">{attendees}</span>
        </p>
        <p>
          <span className="block text-sm text-dust">To collect in all</span>
          <span className="text-2xl font-bold" data-testid="total-to-collect">{`${formatDollars(totalCents)} ${CURRENCY_NAME}`}</span>
        </p>
      </section>
      {cabins.length === 0 ? <p className="panel text-center text-dust">Nobody is recorded for this event yet.</p> : null}
      {cabins.map(({ cabin, attendees: inCabin }) => (
        <section key={cabin} aria-labelledby={`cabin-${cabin}`} className="sheet-cabin mb-8">
          <h2 id={`cabin-${cabin}`} className="mb-3 text-2xl">
            {cabin} <span className="font-serif text-base text-dust">{`(${inCabin.length})`}</span>
          </h2>
          <table className="sheet-table w-full table-fixed border-collapse text-left">
            <thead>
              <tr className="border-b border-timber text-sm text-dust">
                <th scope="col" className="w-[22%] py-2 pr-3">Attendee</th>
                <th scope="col" className="w-[28%] py-2 pr-3">Emergency contact</th>
                <th scope="col" className="w-[22%] py-2 pr-3">Orders to hand out</th>
                <th scope="col" className="w-[12%] py-2 pr-3">To collect</th>
                <th scope="col" className="py-2">Costume photo</th>
              </tr>
            </thead>
            <tbody>
              {inCabin.map((attendee) => (
                <tr key={attendee.userId} id={attendeeAnchor(attendee.userId)} className="scroll-mt-4 border-b border-timber/40 align-top">
                  <th scope="row" tabIndex={-1} className="py-2 pr-3 text-left font-normal" data-label="Attendee">
                    <span className="block font-bold">{attendee.name}</span>
                    <span className="block text-dust">{attendee.characterName ?? "No character"}</span>
                  </th>
                  <td className="py-2 pr-3" data-label="Emergency contact">
                    <Contact attendee={attendee} />
                  </td>
                  <td className="py-2 pr-3" data-label="Orders to hand out">
                    <Orders attendee={attendee} note={note?.userId === attendee.userId ? note : null} unsentOrder={unsentOrder} />
                  </td>
                  <td className="py-2 pr-3 tabular-nums" data-label="To collect">
                    {attendee.dueCents > 0 ? formatDollars(attendee.dueCents) : "Nothing"}
                  </td>
                  <td className="py-2" data-label="Costume photo">
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

export const meta: Route.MetaFunction = ({ data: sheet }) => [{ title: sheet ? `Event-Day Sheet: ${sheet.event.title} · Hopewell` : "Event-Day Sheet · Hopewell" }];

/** A failed read shows the page's own message (logged once by handleError). */
export const ErrorBoundary = pageErrorBoundary("Event-Day Sheet", "Failed to load the event-day sheet");
