/*
 * The event-day sheet's offline copy (app/routes/event-day.tsx registers this worker with the
 * scope /tools/event-day/ only). Each sheet is fetched from the network first; a copy is kept
 * only of a 200 response marked as a manager's sheet (X-Event-Day-Sheet), and any other answer
 * (signed out, no longer a manager, a missing event) deletes the kept copy of that address.
 * Without a network, the kept copy is shown. The copy holds emergency contacts: sign-out clears
 * it (Clear-Site-Data on the sign-out response, and the "forget" message sent from the page).
 */
const CACHE = "event-day-sheets";
const SHEET = /^\/tools\/event-day\/[^/]+$/;

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

/** The address a sheet is kept under: without its query, so one copy per event. */
function sheetKey(url) {
  return url.origin === self.location.origin && SHEET.test(url.pathname) ? url.origin + url.pathname : null;
}

async function fetchAndKeep(request, key) {
  const response = await fetch(request);
  const cache = await caches.open(CACHE);
  if (response.status === 200 && !response.redirected && response.headers.get("X-Event-Day-Sheet") === "manager") {
    await cache.put(key, response.clone());
  } else {
    await cache.delete(key);
  }
  return response;
}

async function sheet(request, key) {
  try {
    return await fetchAndKeep(request, key);
  } catch (error) {
    const kept = await caches.match(key, { cacheName: CACHE });
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || request.mode !== "navigate") return;
  const key = sheetKey(new URL(request.url));
  if (key) event.respondWith(sheet(request, key));
});

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type === "forget") {
    event.waitUntil(caches.delete(CACHE));
  } else if (message.type === "keep" && typeof message.url === "string") {
    // The sheet first opened before this worker controlled the page: fetched once more, and kept.
    const key = sheetKey(new URL(message.url, self.location.origin));
    if (key) event.waitUntil(fetchAndKeep(new Request(key, { credentials: "same-origin" }), key).catch(() => {}));
  }
});
