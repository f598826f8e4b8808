/*
 * The event-day sheet's offline copy (the sheet, app/routes/staff/event-day/event-day.tsx, registers
 * this worker in app/features/event-day/SheetParts.tsx with the scope /tools/event-day/ only). Each sheet is fetched from the network first; a copy is kept
 * only of a 200 response marked as a manager's sheet (X-Event-Day-Sheet), and any other answer
 * (signed out, no longer a manager, a missing event) deletes the kept copy of that address.
 * Without a network, the kept copy is shown. The copy holds emergency contacts: sign-out clears
 * it (Clear-Site-Data on the sign-out response, and the "forget" message sent from the page).
 *
 * A copy is the sheet's HTML and every file its head loads (the stylesheet and the fonts it
 * names, each script module, the icon, the icons' sprite), kept with it in the same cache and
 * served from there to the pages this worker controls. The browser's HTTP cache is no stand-in: sign-out's
 * Clear-Site-Data empties it while an open tab goes on using its in-memory copies, so a sheet
 * kept after signing in again in that tab would open offline as bare HTML with no scripts. The
 * files keep the names they had when the sheet was kept, so a copy made before a new build
 * still works offline after it; a file no kept sheet loads any more is deleted.
 */
const CACHE = "event-day-sheets";
const SHEET = /^\/tools\/event-day\/[^/]+$/;
/**
 * The kinds of <link> in a sheet's head whose file the page needs to look right and run (the
 * icons' sprite is named by a prefetch link).
 */
const NEEDED_LINKS = new Set(["stylesheet", "modulepreload", "icon", "prefetch"]);

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

/** The address a sheet is kept under: without its query, so one copy per event. */
function sheetKey(url) {
  return url.origin === self.location.origin && SHEET.test(url.pathname) ? url.origin + url.pathname : null;
}

/** A file of this site other than a sheet, by its full address; null for anything else. */
function siteFile(href, base) {
  let url;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (url.origin !== self.location.origin || !/^https?:$/.test(url.protocol) || sheetKey(url)) return null;
  url.hash = "";
  return url.href;
}

function attribute(tag, name) {
  const match = new RegExp(`\\s${name}="([^"]*)"`, "i").exec(tag);
  return match ? match[1].replaceAll("&amp;", "&") : null;
}

/**
 * The files a sheet's head loads. Only the head is read: what members wrote is in the body and
 * the page's data, never a tag of the head.
 */
function filesOfSheet(html, sheetUrl) {
  const end = html.search(/<\/head>/i);
  const head = end === -1 ? "" : html.slice(0, end);
  const files = new Set();
  for (const [tag] of head.matchAll(/<link\b[^>]*>/gi)) {
    const rel = (attribute(tag, "rel") ?? "").toLowerCase().split(/\s+/);
    const href = attribute(tag, "href");
    const file = href && rel.some((kind) => NEEDED_LINKS.has(kind)) ? siteFile(href, sheetUrl) : null;
    if (file) files.add(file);
  }
  return files;
}

/** The files a stylesheet names (its fonts), if `response` is one. */
async function filesOfStylesheet(response, cssUrl) {
  if (!(response.headers.get("Content-Type") ?? "").startsWith("text/css")) return [];
  const css = await response.clone().text();
  return [...css.matchAll(/url\(\s*(["']?)([^"')]+)\1\s*\)/g)]
    .map((match) => siteFile(match[2].trim(), cssUrl))
    .filter(Boolean);
}

/**
 * Cache writes one at a time: a sheet and its files go in before any pruning looks at what the
 * kept sheets need, and a "forget" is not undone by a copy still being made.
 */
let writes = Promise.resolve();
function serially(task) {
  const run = writes.then(task);
  writes = run.catch(() => {});
  return run;
}

/**
 * Keeps the files a sheet loads, then the sheet: a kept sheet has its files. A file that cannot
 * be fetched now does not hold the sheet back (its facts matter most); the next copy of the sheet
 * tries the file again.
 */
async function keepSheet(cache, key, response) {
  const html = await response.clone().text();
  const pending = [...filesOfSheet(html, key)];
  const seen = new Set(pending);
  while (pending.length > 0) {
    const url = pending.shift();
    let file;
    try {
      file = await fetch(url, { credentials: "same-origin" });
    } catch {
      continue;
    }
    if (!file.ok || file.redirected) continue;
    for (const named of await filesOfStylesheet(file, url)) {
      if (seen.has(named)) continue;
      seen.add(named);
      pending.push(named);
    }
    await cache.put(url, file);
  }
  await cache.put(key, response);
}

/** Deletes every kept file that no kept sheet loads (a sheet dropped, or kept again after a new build). */
async function pruneFiles(cache) {
  const entries = await cache.keys();
  const needed = new Set();
  for (const request of entries) {
    if (!sheetKey(new URL(request.url))) continue;
    needed.add(request.url);
    const kept = await cache.match(request);
    if (kept) for (const file of filesOfSheet(await kept.text(), request.url)) needed.add(file);
  }
  for (const url of [...needed]) {
    const kept = await cache.match(url);
    if (kept) for (const file of await filesOfStylesheet(kept, url)) needed.add(file);
  }
  await Promise.all(entries.filter((request) => !needed.has(request.url)).map((request) => cache.delete(request)));
}

/** Keeps a manager's sheet with its files, or drops the copy of that address on any other answer. */
function keepOrDrop(key, response) {
  return serially(async () => {
    const cache = await caches.open(CACHE);
    if (response.status === 200 && !response.redirected && response.headers.get("X-Event-Day-Sheet") === "manager") {
      await keepSheet(cache, key, response);
    } else {
      await cache.delete(key);
    }
    await pruneFiles(cache);
  });
}

/** Fetches a sheet and answers with it at once; the copy (with its files) is made after. */
async function sheet(event, key) {
  try {
    const response = await fetch(event.request);
    event.waitUntil(keepOrDrop(key, response.clone()));
    return response;
  } catch (error) {
    const kept = await caches.match(key, { cacheName: CACHE });
    if (kept) return kept;
    throw error;
  }
}

/** A file a kept sheet loads, from the copy (its name changes with its content); anything else from the network. */
async function keptOrFetched(request) {
  const kept = await caches.match(request.url, { cacheName: CACHE });
  return kept ?? fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (request.mode === "navigate") {
    const key = sheetKey(url);
    if (key) event.respondWith(sheet(event, key));
  } else if (siteFile(request.url, self.location.origin)) {
    event.respondWith(keptOrFetched(request));
  }
});

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type === "forget") {
    event.waitUntil(serially(() => caches.delete(CACHE)));
  } else if (message.type === "keep" && typeof message.url === "string") {
    // The sheet first opened before this worker controlled the page: fetched once more, and kept.
    const key = sheetKey(new URL(message.url, self.location.origin));
    if (key) {
      event.waitUntil(
        fetch(new Request(key, { credentials: "same-origin" }))
          .then((response) => keepOrDrop(key, response))
          .catch(() => {}),
      );
    }
  }
});
