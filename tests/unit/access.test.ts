import { describe, expect, it } from "vitest";
import { canBuildCharacter, isManager, isStaff, ROLES, rolesWhere } from "~/game/roles";
import { formLinksFor, canUseTools } from "~/lib/navigation";
import { ACCESS_RULES, decideAccess, ROUTE_ACCESS } from "~/server/access.server";
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

  it("opens passkey sign-in to anyone and a member's passkeys to that member", () => {
    for (const pattern of ["/auth/passkey/options", "/auth/passkey/verify"]) {
      expect(decideAccess(pattern, undefined, "POST"), pattern).toBe("allow");
    }
    for (const pattern of ["/profile/passkeys", "/profile/passkeys/options", "/profile/passkeys/verify"]) {
      expect(decideAccess(pattern, undefined, "POST"), pattern).toBe("sign-in");
      expect(decideAccess(pattern, "applicant", "POST"), pattern).toBe("allow");
    }
  });

  it("opens sign-in with Discord to anyone, and each member's sign-in methods to that member", () => {
    for (const method of ["GET", "POST"]) {
      expect(decideAccess("/auth/discord", undefined, method)).toBe("allow");
      expect(decideAccess("/auth/discord/callback", undefined, method)).toBe("allow");
      expect(decideAccess("/profile/sign-in-methods", undefined, method)).toBe("sign-in");
      for (const role of ROLES) expect(decideAccess("/profile/sign-in-methods", role, method), role).toBe("allow");
    }
  });

  it("lets anyone ask for and use a sign-in code, and keeps a member's email address to that member", () => {
    expect(decideAccess("/auth/email-code", undefined)).toBe("allow");
    expect(decideAccess("/auth/email-code", undefined, "POST")).toBe("allow");
    for (const pattern of ["/profile/email", "/profile/email/confirm"]) {
      expect(decideAccess(pattern, undefined), pattern).toBe("sign-in");
      expect(decideAccess(pattern, undefined, "POST"), pattern).toBe("sign-in");
      for (const role of ROLES) expect(decideAccess(pattern, role, "POST"), `${pattern} ${role}`).toBe("allow");
    }
  });

  it("grants each level to exactly the spec's roles (SPEC section 6)", () => {
    expect(rolesWhere(ACCESS_RULES.member)).toEqual(ROLES);
    expect(rolesWhere(ACCESS_RULES.character)).toEqual(["player", "cast", "manager"]);
    expect(rolesWhere(ACCESS_RULES.staff)).toEqual(["cast", "manager"]);
    expect(rolesWhere(ACCESS_RULES.manager)).toEqual(["manager"]);
  });

  it("uses the same rule for a level, a page's menu and the domain (one function per rule)", () => {
    expect(ACCESS_RULES.character).toBe(canBuildCharacter);
    expect(ACCESS_RULES.staff).toBe(isStaff);
    expect(ACCESS_RULES.manager).toBe(isManager);
    for (const role of ROLES) {
      expect(formLinksFor(role).some((link) => link.to === "/character"), role).toBe(decideAccess("/character", role) === "allow");
      expect(canUseTools(role), role).toBe(decideAccess("/tools", role) === "allow");
    }
  });
});
