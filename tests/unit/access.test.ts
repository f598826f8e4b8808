import { describe, expect, it } from "vitest";
import { canBuildCharacter, isManager, isStaff, ROLES, rolesWhere } from "~/game/roles";
import { formLinksFor, canUseTools } from "~/lib/navigation";
import { ACCESS_RULES, decideAccess, ROUTE_ACCESS } from "~/web/access.server";
import { requiresSecondFactor } from "~/web/assurance.server";
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

  it("keeps an event's calendar file to those who may see /events, and the feed to its secret address", () => {
    expect(decideAccess("/events", undefined)).toBe("sign-in");
    expect(decideAccess("/events/:id/calendar.ics", undefined)).toBe("sign-in");
    for (const role of ROLES) {
      expect(decideAccess("/events", role), role).toBe("allow");
      expect(decideAccess("/events/:id/calendar.ics", role), role).toBe(decideAccess("/events", role));
    }
    expect(ROUTE_ACCESS["/events/:id/calendar.ics"]).toBe(ROUTE_ACCESS["/events"]);
    // Calendar apps send no cookie: the route itself checks the member's key and account on every reading.
    expect(ROUTE_ACCESS["/events/calendar/:memberId/:key"]).toBe("anyone");
    // The old public feed's address is no route at all (the not-found page).
    expect(ROUTE_ACCESS["/events/calendar.ics"]).toBeUndefined();
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

  it("keeps a member's whole account and inviting members to managers, reading and changing alike", () => {
    for (const pattern of ["/tools/members/:id", "/tools/members/invite"]) {
      for (const method of ["GET", "POST"]) {
        expect(decideAccess(pattern, undefined, method), `${method} ${pattern}`).toBe("sign-in");
        for (const role of ["applicant", "player", "cast"] as const)
          expect(decideAccess(pattern, role, method), `${role} ${method} ${pattern}`).toBe("forbidden");
        expect(decideAccess(pattern, "manager", method), `${method} ${pattern}`).toBe("allow");
      }
    }
  });

  it("keeps a member's data page and prepared copies to members, a deleted account's goodbye open, and deleting others to managers", () => {
    for (const method of ["GET", "POST"]) {
      for (const pattern of ["/profile/data", "/profile/data/:id/file"]) {
        expect(decideAccess(pattern, undefined, method), pattern).toBe("sign-in");
        for (const role of ROLES) expect(decideAccess(pattern, role, method), `${pattern} ${role}`).toBe("allow");
      }
      expect(decideAccess("/account-deleted", undefined, method)).toBe("allow");
      expect(decideAccess("/tools/members/:id/delete", undefined, method)).toBe("sign-in");
      for (const role of ["applicant", "player", "cast"] as const)
        expect(decideAccess("/tools/members/:id/delete", role, method), role).toBe("forbidden");
      expect(decideAccess("/tools/members/:id/delete", "manager", method)).toBe("allow");
    }
  });

  it("keeps costume photos to accepted members, each photo to its owner and staff (checked by the loader), and their review to staff", () => {
    for (const method of ["GET", "POST"]) {
      expect(decideAccess("/costume", undefined, method)).toBe("sign-in");
      expect(decideAccess("/costume", "applicant", method)).toBe("forbidden");
      for (const role of ["player", "cast", "manager"] as const)
        expect(decideAccess("/costume", role, method), role).toBe("allow");
      expect(decideAccess("/view-costumes", undefined, method)).toBe("sign-in");
      for (const role of ["applicant", "player"] as const)
        expect(decideAccess("/view-costumes", role, method), role).toBe("forbidden");
      for (const role of ["cast", "manager"] as const)
        expect(decideAccess("/view-costumes", role, method), role).toBe("allow");
    }
    for (const pattern of ["/costume/photos/:id", "/costume/photos/:id/thumb"]) {
      expect(decideAccess(pattern, undefined)).toBe("sign-in");
      for (const role of ROLES) expect(decideAccess(pattern, role), `${pattern} ${role}`).toBe("allow");
    }
    for (const role of ROLES)
      expect(
        formLinksFor(role).some((link) => link.to === "/costume"),
        role,
      ).toBe(decideAccess("/costume", role) === "allow");
  });

  it("opens a member's letters to every member (the loader shows only their own) and the letter queues to staff, reading and changing alike", () => {
    for (const method of ["GET", "POST"]) {
      for (const pattern of ["/letters", "/letters/:id"]) {
        expect(decideAccess(pattern, undefined, method), pattern).toBe("sign-in");
        for (const role of ROLES)
          expect(decideAccess(pattern, role, method), `${role} ${method} ${pattern}`).toBe("allow");
      }
      expect(decideAccess("/view-letters", undefined, method)).toBe("sign-in");
      for (const role of ["applicant", "player"] as const)
        expect(decideAccess("/view-letters", role, method), `${role} ${method}`).toBe("forbidden");
      for (const role of ["cast", "manager"] as const)
        expect(decideAccess("/view-letters", role, method), `${role} ${method}`).toBe("allow");
    }
  });

  it("grants each level to exactly its roles (docs/product.md#roles-and-access)", () => {
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
      expect(
        formLinksFor(role).some((link) => link.to === "/character"),
        role,
      ).toBe(decideAccess("/character", role) === "allow");
      expect(canUseTools(role), role).toBe(decideAccess("/tools", role) === "allow");
    }
  });
});

describe("the second-factor requirement (REQUIRE_MANAGER_2FA, REQUIRE_CAST_2FA)", () => {
  const byDefault = { requireManager: true, requireCast: false };
  const staffLevel = (pattern: string, method: string) => {
    const entry = ROUTE_ACCESS[pattern]!;
    const access = typeof entry === "string" ? entry : method === "GET" ? entry.read : entry.change;
    return access === "staff" || access === "manager";
  };

  it("asks managers, by default, on every staff and manager route and on no other", () => {
    for (const pattern of Object.keys(ROUTE_ACCESS)) {
      for (const method of ["GET", "POST"]) {
        expect(requiresSecondFactor(pattern, "manager", method, byDefault), `${method} ${pattern}`).toBe(
          staffLevel(pattern, method),
        );
        for (const role of ["applicant", "player", "cast"] as const)
          expect(requiresSecondFactor(pattern, role, method, byDefault), `${role} ${pattern}`).toBe(false);
      }
    }
    expect(requiresSecondFactor("/tools", "manager", "GET", byDefault)).toBe(true);
    expect(requiresSecondFactor("emergency-contacts", "manager", "GET", byDefault)).toBe(true);
  });

  it("never on the pages where a factor is set up or given", () => {
    const everyone = { requireManager: true, requireCast: true };
    for (const pattern of [
      "/profile/two-factor",
      "/profile/two-factor/backup-codes",
      "/auth/two-factor",
      "/auth",
      "/profile",
      "/logout",
    ]) {
      for (const role of ROLES)
        expect(requiresSecondFactor(pattern, role, "POST", everyone), `${role} ${pattern}`).toBe(false);
    }
  });

  it("asks cast on the staff routes only with REQUIRE_CAST_2FA, and nobody with both off", () => {
    expect(requiresSecondFactor("/attendance", "cast", "GET", { requireManager: true, requireCast: true })).toBe(true);
    expect(requiresSecondFactor("/tools", "cast", "GET", { requireManager: false, requireCast: true })).toBe(true);
    expect(requiresSecondFactor("/tools", "manager", "GET", { requireManager: false, requireCast: true })).toBe(false);
    expect(requiresSecondFactor("/tools", "manager", "POST", { requireManager: false, requireCast: false })).toBe(
      false,
    );
    expect(requiresSecondFactor("/no-such-route", "manager", "GET", byDefault)).toBe(false);
  });
});
