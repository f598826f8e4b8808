import type { AnchorHTMLAttributes } from "react";
import { useLocation } from "react-router";

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  /** A path from the root, or a query (`?tab=x`) or fragment of the current page. */
  to: string;
  /** Replaces the current history entry instead of adding one. */
  replace?: boolean;
  /** Keeps the window where it is scrolled to, as a disclosure on a long page should. */
  preventScrollReset?: boolean;
};

/**
 * A link within the site: a plain anchor, the same markup on the server and in the browser, that
 * the browser follows inside the app (useInAppLinks, in root.tsx) without reloading the page, and
 * as an ordinary link without JavaScript. React Router's own Link resolves its address against
 * the page's routes with a dozen hooks for every link on every page the server renders (about
 * 180 µs on the events page, docs/decisions/0041-links-followed-in-the-app.md); these addresses
 * need no resolving: from the root, or a query or fragment of the page, completed here as the
 * router would.
 */
export function Link({ to, replace, preventScrollReset, ...anchor }: LinkProps) {
  const { pathname } = useLocation();
  return (
    // eslint-disable-next-line jsx-a11y/anchor-has-content -- the content is among the anchor's props
    <a
      {...anchor}
      href={hrefFor(to, pathname)}
      data-in-app=""
      data-replace={replace ? "" : undefined}
      data-keep-scroll={preventScrollReset ? "" : undefined}
    />
  );
}

/** The address a link's `to` names on the page at `pathname`: a query or fragment completed with the page's path. */
export function hrefFor(to: string, pathname: string): string {
  if (to.startsWith("?")) return to === "?" ? pathname : pathname + to;
  if (to.startsWith("#")) return pathname + to;
  return to;
}
