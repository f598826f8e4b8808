import { isManager, isStaff, type Role } from "~/game/roles";
import { normalizePattern, ROUTE_ACCESS, type Access } from "./access.server";

/** Who must have proven a second factor (REQUIRE_MANAGER_2FA, REQUIRE_CAST_2FA). */
export type SecondFactorPolicy = { requireManager: boolean; requireCast: boolean };

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The level the route table asks of this route and method, or undefined for a route it does not list. */
function accessFor(pattern: string, method: string): Access | undefined {
  const entry = ROUTE_ACCESS[normalizePattern(pattern)];
  if (entry === undefined) return undefined;
  return typeof entry === "string" ? entry : READ_METHODS.has(method) ? entry.read : entry.change;
}

/**
 * Whether a member of `role` needs a session proven by a second factor (aal2) for this route:
 * managers (when REQUIRE_MANAGER_2FA, the default) on every staff and manager route, cast (when
 * REQUIRE_CAST_2FA) on the staff routes; and a member who has a factor (`hasFactor`) on every
 * signed-in route, however the session was made (an emailed code or Discord signs in without
 * it). Pages open to anyone, /auth/two-factor among them, never do, so a member can always give
 * their code; one without a factor can always reach /profile/two-factor to set one up.
 */
export function requiresSecondFactor(pattern: string, role: Role, method: string, policy: SecondFactorPolicy, hasFactor = false): boolean {
  const access = accessFor(pattern, method);
  if (hasFactor && access !== undefined && access !== "anyone") return true;
  if (access !== "staff" && access !== "manager") return false;
  if (isManager(role)) return policy.requireManager;
  if (isStaff(role)) return policy.requireCast;
  return false;
}
