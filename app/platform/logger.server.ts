import pino from "pino";
import { serializeError } from "./log-errors.server";

/**
 * The process's logger: JSON in production, readable in a terminal during development.
 * Never log secrets, passwords, tokens or emergency contacts; the redact list is a
 * safety net for the common field names, not a licence to log whole objects.
 */
const LEVELS = new Set(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);
const wanted = process.env.LOG_LEVEL?.trim();
// The logger exists before the configuration is checked; a bad LOG_LEVEL is reported by
// that check, naming the variable, rather than by pino's stack trace at import time.
const level = wanted && LEVELS.has(wanted) ? wanted : process.env.NODE_ENV === "test" ? "silent" : "info";
const pretty = process.env.NODE_ENV === "development" && process.stdout.isTTY;

export const logger = pino({
  level,
  // "time":"2026-05-02T18:04:11.512Z" rather than milliseconds since 1970: the log is read by people
  // (journalctl, grep) as often as by tools, and every log tool reads ISO 8601.
  timestamp: pino.stdTimeFunctions.isoTime,
  // Errors are logged without the values of a failed statement (log-errors.server.ts).
  serializers: { err: serializeError, error: serializeError },
  redact: {
    paths: ["password", "*.password", "token", "*.token", "headers.cookie", "emergencyContact", "*.emergencyContact"],
    censor: "[redacted]",
  },
  ...(pretty ? { transport: { target: "pino-pretty" } } : {}),
});

/**
 * A request's path as it may be logged: an address that is itself a secret (a member's calendar
 * feed, /events/calendar/<member id>/<key>.ics: calendar-feed.server.ts) is written as its
 * route pattern. Matched the way the router matches (any case, percent-decoded, extra slashes).
 */
export function loggablePath(pathname: string): string {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape: judged as written.
  }
  for (const candidate of [pathname, decoded]) {
    if (/^\/*events\/+calendar\/+[^/]/i.test(candidate)) return "/events/calendar/:memberId/:key";
  }
  return pathname;
}
