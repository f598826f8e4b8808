import { data, redirect, type MiddlewareFunction } from "react-router";
import { SITE_MESSAGES } from "~/web/forms/messages";
import { requestInfoContext, userContext } from "./request-context";
import { isDataRequest } from "./data-request";
import { decideAccess, normalizePattern } from "./access.server";
import { requiresSecondFactor } from "./assurance.server";
import { config } from "~/platform/config.server";
import { getSessionUser } from "~/identity/session.server";
import { needsSecondFactorToManageFactors, refuseWithoutSecondFactor } from "./two-factor-gate.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Routes posted to by another service, not a browser: they carry no cookie and no Origin, and
 * each proves its sender itself (Stripe signs every webhook body, checked before anything is
 * read from it: features/tickets/webhook.server.ts).
 */
export const SIGNED_BY_SENDER: ReadonlySet<string> = new Set(["/webhooks/stripe", "/unsubscribe"]);

/**
 * A state-changing request must come from one of our own pages: its Origin (or,
 * failing that, its Referer) must be this site, scheme and host both (an https page
 * is not an http one). Browsers send Origin on every cross-site POST, so a forged
 * form from elsewhere is refused before any action runs. The request's URL already
 * carries the scheme and host the visitor used (behind a trusted proxy, the ones it
 * reports: http/pipeline/request-url.ts).
 */
export function isSameOrigin(request: Request): boolean {
  const source = request.headers.get("Origin") ?? request.headers.get("Referer");
  if (!source || source === "null") return false;
  let origin: string;
  try {
    origin = new URL(source).origin;
  } catch {
    return false;
  }
  const allowed = new Set([new URL(request.url).origin]);
  const appUrl = config().appUrl;
  if (appUrl) allowed.add(new URL(appUrl).origin);
  return allowed.has(origin);
}

/**
 * Runs before every loader and action: refuses cross-site posts, loads the member,
 * and applies the route table. Loaders and actions still call their own guard,
 * because a route's own check is what a reader of that route sees.
 */
export const accessMiddleware: MiddlewareFunction<Response> = async ({ request, context, pattern, url }, next) => {
  context.get(requestInfoContext).route = normalizePattern(pattern);
  if (!SAFE_METHODS.has(request.method) && !isSameOrigin(request) && !SIGNED_BY_SENDER.has(normalizePattern(pattern))) {
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
  // Managers' tools need a session proven by a second factor (REQUIRE_MANAGER_2FA, REQUIRE_CAST_2FA),
  // as does changing the factors of a member who has one.
  if (
    user &&
    user.assuranceLevel !== "aal2" &&
    (requiresSecondFactor(pattern, user.role, request.method, config().twoFactor, user.twoFactorEnabled) ||
      (await needsSecondFactorToManageFactors(normalizePattern(pattern), user)))
  ) {
    await refuseWithoutSecondFactor(user, url, SAFE_METHODS.has(request.method) || isDataRequest(request));
  }

  const response = await next();
  for (const cookie of setCookies) response.headers.append("Set-Cookie", cookie);
  return response;
};
