import { data, redirect, type MiddlewareFunction } from "react-router";
import { SITE_MESSAGES } from "~/forms/messages";
import { userContext } from "~/lib/request-context";
import { decideAccess } from "./access.server";
import { config } from "./config.server";
import { getSessionUser } from "./session.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A state-changing request must come from one of our own pages: its Origin (or,
 * failing that, its Referer) must be this site. Browsers send Origin on every
 * cross-site POST, so a forged form from elsewhere is refused before any action runs.
 */
export function isSameOrigin(request: Request): boolean {
  const source = request.headers.get("Origin") ?? request.headers.get("Referer");
  if (!source || source === "null") return false;
  let host: string;
  try {
    host = new URL(source).host;
  } catch {
    return false;
  }
  const allowed = new Set([new URL(request.url).host]);
  if (config().appUrl) allowed.add(new URL(config().appUrl!).host);
  return allowed.has(host);
}

/** React Router's data requests end in .data; they get status codes, not page redirects. */
function isDataRequest(request: Request): boolean {
  return new URL(request.url).pathname.endsWith(".data");
}

/**
 * Runs before every loader and action: refuses cross-site posts, loads the member,
 * and applies the route table. Loaders and actions still call their own guard,
 * because a route's own check is what a reader of that route sees.
 */
export const accessMiddleware: MiddlewareFunction<Response> = async ({ request, context, pattern, url }, next) => {
  if (!SAFE_METHODS.has(request.method) && !isSameOrigin(request)) {
    throw data(SITE_MESSAGES.crossSite, { status: 403 });
  }
  const { user, setCookies } = await getSessionUser(request);
  context.set(userContext, user);

  const decision = decideAccess(pattern, user?.role, request.method);
  if (decision === "sign-in") {
    if (SAFE_METHODS.has(request.method) || isDataRequest(request)) {
      throw redirect(`/auth?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
    }
    throw data("Please sign in", { status: 401 });
  }
  if (decision === "forbidden") {
    if (request.method === "GET" && !isDataRequest(request)) throw redirect("/");
    throw data("Forbidden", { status: 403 });
  }

  const response = await next();
  for (const cookie of setCookies) response.headers.append("Set-Cookie", cookie);
  return response;
};
