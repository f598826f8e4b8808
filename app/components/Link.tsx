import { forwardRef } from "react";
import { Link as RouterLink, type LinkProps } from "react-router";

/**
 * A site address the server can write as it is: from the root, with nothing React Router would
 * rewrite (a `.` or `..` segment, doubled or back slashes, an empty query or fragment at the end).
 */
const PLAIN_ADDRESS = /^\/(?![/\\])(?!.*\/\.\.?(?:[/?#]|$))(?!.*[/\\]{2})(?!.*\\)(?!.*[?#]$)/;

/**
 * React Router's link, written by the server as the anchor it would write. The router's own
 * link runs about a dozen hooks to resolve its address against the page's routes, several
 * microseconds each on every page the server renders, and a page such as the events list has
 * dozens. In the browser this is React Router's link itself, which hydrates onto the same
 * markup and navigates in the app (tests/unit/link.test.ts holds the two to the same HTML).
 */
function ServerLink(
  {
    to,
    discover = "render",
    prefetch,
    relative,
    reloadDocument,
    replace,
    mask,
    state,
    preventScrollReset,
    viewTransition,
    defaultShouldRevalidate,
    onClick,
    target,
    ...rest
  }: LinkProps,
  ref: React.ForwardedRef<HTMLAnchorElement>,
) {
  if (typeof to !== "string" || !PLAIN_ADDRESS.test(to) || mask || (prefetch && prefetch !== "none")) {
    return (
      <RouterLink
        ref={ref}
        {...{ to, discover, prefetch, relative, reloadDocument, replace, mask, state, preventScrollReset, viewTransition, defaultShouldRevalidate, onClick, target }}
        {...rest}
      />
    );
  }
  // The attributes in the router's order, so the markup is the same to the byte; the content is in `rest`.
  // eslint-disable-next-line jsx-a11y/anchor-has-content
  return <a {...rest} href={to} target={target} data-discover={discover === "render" ? "true" : undefined} />;
}

export const Link: typeof RouterLink = import.meta.env.SSR ? forwardRef(ServerLink) : RouterLink;
