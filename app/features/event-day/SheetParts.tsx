// The event-day sheet's parts in the browser: its copy kept for use without signal, where the
// keyboard goes after "Handed out", presses held while offline, and each attendee's cells.
import { useEffect, useRef, useState, useSyncExternalStore, type FormEvent } from "react";
import { Form, useLocation } from "react-router";
import { CallLink } from "~/components/CallLink";
import { OrderItems } from "~/features/club-facts/merchant/OrderItems";
import { HANDED_OUT_MESSAGES } from "~/features/review/handed-out.form";
import { EVENT_DAY_SCOPE, EVENT_DAY_WORKER } from "./event-day-offline";
import type { SheetAttendee } from "./event-day.server";

/** What was just done to an attendee's orders, as the address notes it (the route reads it). */
export type SheetNote = {
  done: "handedOut" | "undone";
  userId: string;
  name: string;
  left: number;
  orderId: string | null;
};

/** The id of an attendee's row, which marking an order returns to. */
export function attendeeAnchor(userId: string): string {
  return `attendee-${userId}`;
}

/**
 * Keeps this sheet for use without signal: the worker, scoped to the sheets only, stores each
 * sheet a manager fetches. The first visit is not yet through the worker, so it is asked to
 * fetch this page once for itself. With scripts, "Handed out" and Undo read the sheet again
 * without loading the page, which the worker does not see: after each such reading it is asked
 * to fetch the page again, so the copy offline shows what was handed out.
 */
export function useOfflineCopy(fetchedAt: string) {
  const firstReading = useRef(fetchedAt);
  useEffect(() => {
    if (fetchedAt === firstReading.current || !("serviceWorker" in navigator) || !navigator.onLine) return;
    void navigator.serviceWorker.ready
      .then((registration) => registration.active?.postMessage({ type: "keep", url: location.pathname }))
      .catch(() => {});
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
  return useSyncExternalStore(
    subscribeToNetwork,
    () => !navigator.onLine,
    () => false,
  );
}

/**
 * After "Handed out" or Undo, the pressed button is gone: the keyboard goes to the order just put
 * back after Undo, or else to the attendee's next order to hand out, or else to their name at the
 * head of the row, rather than falling to the top of the page. On each arrival with the note, not
 * only the first.
 */
export function useFocusAfterHandingOut(note: SheetNote | null) {
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
export function useUnsentWhileOffline(offline: boolean) {
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

/** An attendee's emergency contact (to call) and their email. */
export function Contact({ attendee }: { attendee: SheetAttendee }) {
  const contact = attendee.emergencyContact;
  return (
    <div className="flex flex-col gap-1">
      {contact ? (
        <>
          <span className="font-bold">{contact.name}</span>
          <CallLink
            name={contact.name}
            phone={contact.phone}
            className="inline-flex items-center gap-1 tabular-nums"
            iconClassName="size-4 print:hidden"
          />
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
export function Orders({
  attendee,
  note,
  unsentOrder,
}: {
  attendee: SheetAttendee;
  note: SheetNote | null;
  unsentOrder: string | null;
}) {
  return (
    <div className="flex flex-col gap-2">
      {note ? (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 print:hidden">
          <p className="font-bold text-sage">
            {note.done === "handedOut" ? HANDED_OUT_MESSAGES.handedOut : HANDED_OUT_MESSAGES.undone}
          </p>
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
              <OrderItems order={order} />
              <Form method="post" className="print:hidden">
                <input type="hidden" name="orderId" value={order.id} />
                <button
                  type="submit"
                  id={handOutButtonId(order.id)}
                  name="intent"
                  value="hand_out"
                  className="btn btn-secondary px-3 py-1 text-sm"
                >
                  Handed out
                  <span className="sr-only">{`: ${attendee.name}'s order${attendee.orders.length > 1 ? ` ${index + 1} of ${attendee.orders.length}` : ""}`}</span>
                </button>
              </Form>
              {order.id === unsentOrder ? (
                <p className="font-bold text-blood print:hidden">{HANDED_OUT_MESSAGES.offline}</p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
