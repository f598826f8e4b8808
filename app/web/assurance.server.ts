import { isManager, isStaff, type Role } from "~/game/roles";
import type { SessionUser } from "~/lib/navigation";
import { normalizePattern, roleHasAccess, ROUTE_ACCESS, type Access } from "./access.server";
import { config } from "~/platform/config.server";

/** Who must have proven a second factor (REQUIRE_MANAGER_2FA, REQUIRE_CAST_2FA). */
export type SecondFactorPolicy = { requireManager: boolean; requireCast: boolean };

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The level the route table asks of this route and method, or undefined for a route it does not list. */
function accessFor(pattern: string, method: string): Access | undefined {
  const entry = ROUTE_ACCESS[normalizePattern(pattern)];
  if (entry === undefined) return undefined;
  return typeof entry === "string" ? entry : READ_METHODS.has(method) ? entry.read : entry.change;
}

/** Whether a member of `role` (with a factor of their own, `hasFactor`) needs an aal2 session for what `access` guards. */
function levelNeedsSecondFactor(
  access: Access | undefined,
  role: Role,
  policy: SecondFactorPolicy,
  hasFactor: boolean,
): boolean {
  if (hasFactor && access !== undefined && access !== "anyone") return true;
  if (access !== "staff" && access !== "manager") return false;
  if (isManager(role)) return policy.requireManager;
  if (isStaff(role)) return policy.requireCast;
  return false;
}

/**
 * Whether a member of `role` needs a session proven by a second factor (aal2) for this route:
 * managers (when REQUIRE_MANAGER_2FA, the default) on every staff and manager route, cast (when
 * REQUIRE_CAST_2FA) on the staff routes; and a member who has a factor (`hasFactor`) on every
 * signed-in route, however the session was made (an emailed code or Discord signs in without
 * it). Pages open to anyone, /auth/two-factor among them, never do, so a member can always give
 * their code; one without a factor can always reach /profile/two-factor to set one up.
 */
export function requiresSecondFactor(
  pattern: string,
  role: Role,
  method: string,
  policy: SecondFactorPolicy,
  hasFactor = false,
): boolean {
  return levelNeedsSecondFactor(accessFor(pattern, method), role, policy, hasFactor);
}

/**
 * Whether this session may use staff rights: read what every member sent (their research files,
 * their costume photos). The role must be staff's, and the session proven by a second factor
 * whenever the staff pages would ask this member for one (the same rule as requiresSecondFactor
 * for a staff route). The staff pages are gated by the route table before their loaders run; a
 * member-level route that also serves staff (a file its author and staff may fetch) is reached
 * by every member, so it asks this instead of the role: a manager signed in with a password
 * alone then gets only what is their own.
 */
export function hasStaffRights(user: SessionUser, policy: SecondFactorPolicy = config().twoFactor): boolean {
  if (!roleHasAccess(user.role, "staff")) return false;
  return user.assuranceLevel === "aal2" || !levelNeedsSecondFactor("staff", user.role, policy, user.twoFactorEnabled);
}
