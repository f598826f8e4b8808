import fs from "node:fs";
import { createElement } from "react";
import { createStaticRouter, type RouteObject, type StaticHandlerContext } from "react-router";
import { describe, expect, it } from "vitest";

/**
 * React Router rebuilt the whole route table's objects for every page it rendered; the patch in
 * patches/ makes them once per build (docs/decisions/0025-route-table-once.md). These checks
 * fail when an install did not apply it, or when a React Router upgrade needs it made again.
 */
describe("React Router's route table, made once", () => {
  it("is patched for the React Router version installed", () => {
    const installed = (JSON.parse(fs.readFileSync("node_modules/react-router/package.json", "utf8")) as { version: string }).version;
    expect(fs.readdirSync("patches")).toContain(`react-router+${installed}.patch`);
  });

  it("converts the same routes to data routes once, however many pages render them", () => {
    const routes: RouteObject[] = [{ id: "root", path: "/", element: createElement("p", null, "home") }];
    const context = { basename: "/", location: { pathname: "/", search: "", hash: "", state: null, key: "default" }, matches: [], loaderData: {}, actionData: null, errors: null, statusCode: 200, loaderHeaders: {}, actionHeaders: {} } as unknown as StaticHandlerContext;
    const first = createStaticRouter(routes, context);
    const second = createStaticRouter(routes, context);
    expect(second.routes).toBe(first.routes);
    // Other routes still get routes of their own.
    expect(createStaticRouter([{ ...routes[0]! }], context).routes).not.toBe(first.routes);
  });
});
