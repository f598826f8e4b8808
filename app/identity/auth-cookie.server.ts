/**
 * Every cookie the auth library sets begins with this prefix (our `advanced.cookiePrefix`).
 * Knowing only that much tells whether a request carries anything of a session, without
 * copying the library's own cookie names or format, which are its business.
 */
export const AUTH_COOKIE_PREFIX = "hopewell";

/** The standard name prefixes a browser enforces (RFC 6265bis), which the library adds over https. */
const BROWSER_PREFIXES = /^__(Secure|Host)-/;

/**
 * True when the Cookie header holds any of the auth library's cookies. It says nothing about
 * whether the session is real (only `auth.api.getSession` does): it decides whether a
 * response may be shared, so erring towards "yes" only costs a fresh render.
 */
export function carriesAuthCookie(cookieHeader: string | null | undefined): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(";").some((pair) => {
    const name = pair.split("=", 1)[0]!.trim().replace(BROWSER_PREFIXES, "");
    return name.startsWith(`${AUTH_COOKIE_PREFIX}.`) || name.startsWith(`${AUTH_COOKIE_PREFIX}-`);
  });
}
