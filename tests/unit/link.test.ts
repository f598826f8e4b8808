import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Link as RouterLink, StaticRouter, type LinkProps } from "react-router";
import { describe, expect, it } from "vitest";
import { Link } from "~/components/Link";

/** A link rendered on a page at `/events/manage`, as the server writes it. */
function markup(component: typeof RouterLink, props: LinkProps): string {
  const page: ReactElement = createElement(StaticRouter, { location: "/events/manage?x=1" }, createElement(component, props));
  return renderToStaticMarkup(page);
}

const CASES: LinkProps[] = [
  { to: "/locations", children: "Venue details" },
  { to: "/auth?mode=signup&redirectTo=%2Fevents", className: "btn", "aria-current": "page", children: "Create Account" },
  { to: "/letters#reply", target: "_self", children: ["Reply", createElement("span", { className: "sr-only", key: "s" }, " to Silas")] },
  { to: "/pels", replace: true, preventScrollReset: true, state: { from: "events" }, viewTransition: true, onClick: () => {}, children: "PELs" },
  { to: "/rulebook", reloadDocument: true, children: "Rulebook" },
  { to: "/costume", discover: "none", children: "Costume" },
  // Left to the router: addresses to resolve, and links that prefetch.
  { to: "../tools", children: "Tools" },
  { to: "manage", children: "Manage" },
  { to: "/events/../tools", children: "Tools" },
  { to: "/events//manage", children: "Manage" },
  { to: "/events/\\manage", children: "Manage" },
  { to: "/events?", children: "Events" },
  { to: "/events#", children: "Events" },
  { to: "/\\elsewhere", children: "Elsewhere" },
  { to: { pathname: "/events", search: "?past=1" }, children: "Past events" },
  { to: "/events", prefetch: "intent", children: "Events" },
  { to: "https://example.com/", children: "Elsewhere" },
];

describe("the site's Link, as the server writes it", () => {
  it("is not React Router's own component on the server", () => {
    expect(Link).not.toBe(RouterLink);
  });

  it.each(CASES.map((props) => [JSON.stringify(props.to) + (props.prefetch ? " prefetch" : "") + (props.reloadDocument ? " reloadDocument" : ""), props] as const))(
    "writes %s exactly as React Router's link does",
    (_name, props) => {
      expect(markup(Link, props)).toBe(markup(RouterLink, props));
    },
  );
});
