import { hasSessionCookie } from "~/identity/session.server";

/** What a member's pages and anything setting a cookie may be kept as: nothing, by anyone. */
export const PRIVATE_CACHE_CONTROL = "private, no-store";

/**
 * A page rendered for someone carrying a session shows their name, role and data, and a
 * response setting a cookie carries a session: neither may be stored by a shared cache
 * or kept in the browser's history cache after signing out. This applies to every response
 * of the app (pages, data requests, redirects, error pages), whatever a route set.
 */
export function keepPrivate(request: Request, response: Response): Response {
  if (!hasSessionCookie(request) && !response.headers.has("Set-Cookie")) return response;
  try {
    response.headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
    return response;
  } catch {
    // A response with immutable headers (Response.redirect, a fetched response): copy it.
    const copy = new Response(response.body, response);
    copy.headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
    return copy;
  }
}
