import type http from "node:http";
import { loggablePath, logger } from "~/platform/logger.server";

/**
 * One log line per request once its response is done (or the client went away): method,
 * the route's pattern when React Router matched one (else the path), status and duration.
 * Never the query string (reset links carry tokens there), headers or cookies, nor an address
 * that is a secret itself (a member's calendar feed: loggablePath).
 */
export function logAccess(req: http.IncomingMessage, res: http.ServerResponse, route: () => string | undefined): void {
  const started = performance.now();
  let logged = false;
  const done = () => {
    if (logged) return;
    logged = true;
    const path = (req.url ?? "/").split("?")[0];
    logger.info(
      {
        method: req.method,
        route: route() ?? loggablePath(path ?? "/"),
        status: res.writableFinished ? res.statusCode : 499,
        ms: Math.round(performance.now() - started),
      },
      "request",
    );
  };
  res.once("finish", done);
  res.once("close", done);
}
