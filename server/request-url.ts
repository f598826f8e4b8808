import type http from "node:http";
import type { Config } from "~/server/config.server";

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
export function requestOrigin(req: http.IncomingMessage, cfg: Pick<Config, "trustProxy">): { protocol: "http:" | "https:"; host: string } {
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

/** True when the visitor reached the site over https (HSTS, upgrade-insecure-requests). */
export function isSecure(req: http.IncomingMessage, cfg: Pick<Config, "trustProxy" | "appUrl">): boolean {
  if (cfg.appUrl?.startsWith("https:")) return true;
  return requestOrigin(req, cfg).protocol === "https:";
}
