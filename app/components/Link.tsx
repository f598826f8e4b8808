import { forwardRef } from "react";
import { Link as RouterLink, type LinkProps } from "react-router";

/**
 * A site address the server can write as it is: from the root, with nothing React Router would
 * rewrite (a `.` or `..` segment, doubled or back slashes, an empty query or fragment at the end).
 */
const PLAIN_ADDRESS = /^\/(?![/\\])(?!.*\/\.\.?(?:[/?#]|$))(?!.*[/\\]{2})(?!.*\\)(?!.*[?#]$)/;

/** A link's properties that are not the anchor's own attributes, and `target`, which the anchor gets back in the router's place. */
const ROUTER_ONLY = new Set<string>([
  "to",
  "discover",
  "prefetch",
  "relative",
  "reloadDocument",
  "replace",
  "mask",
  "state",
  "preventScrollReset",
  "viewTransition",
  "defaultShouldRevalidate",
  "onClick",
  "target",
]);

/**
 * React Router's link, written by the server as the anchor it would write. The router's own
 * link runs about a dozen hooks to resolve its address against the page's routes, several
 * microseconds each on every page the server renders, and a page such as the events list has
 * dozens. In the browser this is React Router's link itself, which hydrates onto the same
 * markup and navigates in the app (tests/unit/link.test.ts holds the two to the same HTML).
 */
function ServerLink(props: LinkProps, ref: React.ForwardedRef<HTMLAnchorElement>) {
  const { to, discover = "render", prefetch, mask, target } = props;
  if (typeof to !== "string" || !PLAIN_ADDRESS.test(to) || mask || (prefetch && prefetch !== "none")) {
    return <RouterLink ref={ref} {...props} />;
  }
  // Copied key by key: destructuring the rest past a dozen named properties costs V8 about two
  // microseconds a link, a tenth of a millisecond on the events page.
  const anchor: Record<string, unknown> = {};
  for (const key in props) if (!ROUTER_ONLY.has(key)) anchor[key] = props[key as keyof LinkProps];
  // The attributes in the router's order, so the markup is the same to the byte; the content is among them.
  anchor.href = to;
  anchor.target = target;
  anchor["data-discover"] = discover === "render" ? "true" : undefined;
  // eslint-disable-next-line jsx-a11y/anchor-has-content
  return <a {...anchor} />;
}

export const Link: typeof RouterLink = import.meta.env.SSR ? forwardRef(ServerLink) : RouterLink;
