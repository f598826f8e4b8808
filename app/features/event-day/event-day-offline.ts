/**
 * The event-day sheet's offline copy (app/routes/staff/event-day/event-day.tsx, public/event-day-sw.js):
 * the worker's address, the only pages it may keep, and the header marking a manager's sheet.
 */
export const EVENT_DAY_WORKER = "/event-day-sw.js";
export const EVENT_DAY_SCOPE = "/tools/event-day/";
/** Set on a sheet served to a manager; the worker stores no response without it. */
export const SHEET_HEADER = "X-Event-Day-Sheet";
/** The worker's cache, also deleted from the page at sign-out. */
export const EVENT_DAY_CACHE = "event-day-sheets";

/**
 * Deletes any kept sheet from this browser and tells the worker to forget it too; at
 * sign-out, alongside the Clear-Site-Data the sign-out response sends.
 */
export async function forgetOfflineSheets(): Promise<void> {
  const steps: Promise<unknown>[] = [];
  if (typeof caches !== "undefined") steps.push(caches.delete(EVENT_DAY_CACHE));
  if (typeof navigator !== "undefined" && "serviceWorker" in navigator) {
    steps.push(
      navigator.serviceWorker.getRegistration(EVENT_DAY_SCOPE).then((registration) => {
        registration?.active?.postMessage({ type: "forget" });
        return registration?.unregister();
      }),
    );
  }
  await Promise.allSettled(steps);
}
