import { describe, expect, it } from "vitest";
import { ROLES } from "~/game/roles";
import { ACCESS_ROLES, decideAccess, ROUTE_ACCESS } from "~/server/access.server";
import { routePatterns } from "../helpers/route-patterns";

describe("the route permission table", () => {
  it("has an entry for every route, and no entry without a route", () => {
    const patterns = routePatterns();
    expect(patterns.filter((pattern) => !(pattern in ROUTE_ACCESS))).toEqual([]);
    expect(Object.keys(ROUTE_ACCESS).filter((pattern) => !patterns.includes(pattern))).toEqual([]);
  });

  it("refuses a route that is missing from the table, even to managers", () => {
    expect(decideAccess("/secret-admin", "manager")).toBe("forbidden");
    expect(decideAccess("/secret-admin", undefined)).toBe("forbidden");
  });

  it("reads React Router's patterns, which lack the leading slash", () => {
    expect(decideAccess("rulebook", undefined)).toBe("allow");
    expect(decideAccess("*", undefined)).toBe("allow");
    expect(decideAccess("/", undefined)).toBe("allow");
  });

  it("can open a page to staff while keeping its actions to managers", () => {
    expect(decideAccess("/tools", "cast", "GET")).toBe("allow");
    expect(decideAccess("/tools", "cast", "POST")).toBe("forbidden");
    expect(decideAccess("/tools", "manager", "POST")).toBe("allow");
    expect(decideAccess("/tools", "player", "GET")).toBe("forbidden");
  });

  it("grants each level to exactly the spec's roles (SPEC section 6)", () => {
    expect(ACCESS_ROLES.member).toEqual(ROLES);
    expect(ACCESS_ROLES.character).toEqual(["player", "cast", "manager"]);
    expect(ACCESS_ROLES.staff).toEqual(["cast", "manager"]);
    expect(ACCESS_ROLES.manager).toEqual(["manager"]);
  });
});
