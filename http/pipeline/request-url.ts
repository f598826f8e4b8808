import type http from "node:http";
import type { Config } from "~/platform/config.server";

/**
 * The last value of a header our one trusted proxy may have appended to. Earlier
 * entries come from whoever sent the request and are never trusted.
 */
function lastForwarded(value: string | string[] | undefined): string | undefined {
  const joined = Array.isArray(value) ? value.join(",") : value;
  const last = joined?.split(",").pop()?.trim();
  return last || undefined;
}

// A host name or address with an optional port: nothing that could change the URL's path.
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i;

/**
 * The scheme and host the visitor used, which the URL of the request handed to
 * React Router is built from: its origin check (and ours) compare the browser's
 * Origin header with it. Directly on this server that is the connection's scheme
 * and the Host header; behind a reverse proxy (TRUST_PROXY, and only then) the
 * proxy's X-Forwarded-Proto and X-Forwarded-Host say what the visitor used.
 */
export function requestOrigin(
  req: http.IncomingMessage,
  cfg: Pick<Config, "trustProxy">,
): { protocol: "http:" | "https:"; host: string } {
  const direct = {
    protocol: "encrypted" in req.socket && req.socket.encrypted ? ("https:" as const) : ("http:" as const),
    host: req.headers.host ?? "localhost",
  };
  if (!cfg.trustProxy) return direct;
  const proto = lastForwarded(req.headers["x-forwarded-proto"])?.toLowerCase();
  const host = lastForwarded(req.headers["x-forwarded-host"]);
  return {
    protocol: proto === "https" ? "https:" : proto === "http" ? "http:" : direct.protocol,
    host: host && HOST.test(host) ? host : direct.host,
  };
}

/**
 * A form post that came through a reverse proxy the site was not told to trust (TRUST_PROXY
 * unset): the browser's Origin is the very scheme and host the proxy reports, but the site,
 * believing only the connection, sees plain http and would refuse it as cross-site with a bare
 * "Bad Request". Then the set-up, not the visitor, is at fault, and the answer says so.
 */
export function postThroughUntrustedProxy(req: http.IncomingMessage, cfg: Pick<Config, "trustProxy">): boolean {
  if (cfg.trustProxy || !["POST", "PUT", "PATCH", "DELETE"].includes(req.method ?? "")) return false;
  const proto = lastForwarded(req.headers["x-forwarded-proto"])?.toLowerCase();
  const host = lastForwarded(req.headers["x-forwarded-host"]) ?? req.headers.host;
  if (!proto || !host || !HOST.test(host) || !req.headers.origin) return false;
  const own = requestOrigin(req, cfg);
  return (
    req.headers.origin.toLowerCase() === `${proto}://${host}`.toLowerCase() &&
    req.headers.origin.toLowerCase() !== `${own.protocol}//${own.host}`.toLowerCase()
  );
}

/** True when the visitor reached the site over https (HSTS, upgrade-insecure-requests). */
export function isSecure(req: http.IncomingMessage, cfg: Pick<Config, "trustProxy" | "appUrl">): boolean {
  if (cfg.appUrl?.startsWith("https:")) return true;
  return requestOrigin(req, cfg).protocol === "https:";
}

/**
 * The address the app is handed for this request (the fetch adapter writes the origin
 * and then the target), or undefined when the request names none this site can
 * read. A Host with a space, a path or credentials in it is no host name, and one a URL
 * parser refuses ("[", a port over 65535) stopped the adapter with an exception. The
 * target must be a path ("/events") or the absolute form naming this same origin
 * ("http://host/events"); "//evil.example/x" and "/\evil.example" are read by URL parsers
 * as another host, "*" and "events" are no path, and a URL with credentials cannot be
 * made into a request. Such a request is refused with 400.
 */
export function requestUrl(target: string | undefined, origin: { protocol: string; host: string }): URL | undefined {
  const base = originUrl(origin);
  if (!base) return undefined;
  if (!target || !(target.startsWith("/") || /^https?:\/\//i.test(target))) return undefined;
  try {
    const url = new URL(target, base);
    if (url.origin !== base.origin || url.username || url.password) return undefined;
    return url;
  } catch {
    return undefined;
  }
}

/**
 * A path from the root that no URL parser reads as naming a host: not "//x" or "/\x", and no
 * tab or line break anywhere (parsers drop them, so "/\t/x" would become "//x"). Read against
 * any origin it stays a path of that origin, so it needs no parsing.
 */
const PLAIN_PATH = /^\/(?![/\\])[^\t\n\r]*$/;

/**
 * The target the app is handed for this request, or undefined when it is refused (see
 * requestUrl): the target itself, or for the absolute form its path and query. Most requests name a plain path: it is checked without making URLs, which
 * took about 6 µs of every request, a twentieth of a page answered from the shared cache.
 */
export function requestPath(
  target: string | undefined,
  origin: { protocol: string; host: string },
): string | undefined {
  if (target !== undefined && PLAIN_PATH.test(target)) return originUrl(origin) ? target : undefined;
  const url = requestUrl(target, origin);
  // A target from the root goes to the app as it came; an absolute-form one (of this same origin) as its path.
  return url && (target!.startsWith("/") ? target : url.pathname + url.search);
}

/** Each origin's URL, or null where it is none: requests name the same few origins over and over. */
const ORIGIN_URLS = new Map<string, URL | null>();

function originUrl(origin: { protocol: string; host: string }): URL | null {
  const key = `${origin.protocol}//${origin.host}`;
  let url = ORIGIN_URLS.get(key);
  if (url === undefined) {
    url = null;
    if (origin.host && !/[\s/\\?#@]/.test(origin.host)) {
      try {
        url = new URL(key);
      } catch {
        url = null;
      }
    }
    // The Host header is the sender's to choose: only a few are kept.
    if (ORIGIN_URLS.size >= 100) ORIGIN_URLS.clear();
    ORIGIN_URLS.set(key, url);
  }
  return url;
}

/** Methods a fetch Request cannot carry (Node's parser passes them on): they are answered 405. */
const UNANSWERED_METHODS = new Set(["TRACE", "TRACK", "CONNECT"]);

/** True when the request's method is one the app cannot be handed. */
export function isUnansweredMethod(method: string | undefined): boolean {
  return UNANSWERED_METHODS.has((method ?? "GET").toUpperCase());
}
