/** Member roles, from least to most trusted (docs/product.md#roles-and-access). */
export const ROLES = ["applicant", "player", "cast", "manager"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  applicant: "Applicant",
  player: "Player",
  cast: "Cast",
  manager: "Manager",
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/*
 * The rules about roles, one function each, used by the route table, the pages, the
 * domain's queries and the command line alike. Each is a rank: a role holds the powers of
 * every role below it in ROLES.
 */
const atLeast = (role: Role, lowest: Role) => ROLES.indexOf(role) >= ROLES.indexOf(lowest);

/** Accepted into the game (players, cast and managers): may build a character. */
export function canBuildCharacter(role: Role): boolean {
  return atLeast(role, "player");
}

/**
 * Cast and managers: read the staff tools and every member's submissions. A signed-in session
 * uses that right through `hasStaffRights` (app/web/assurance.server.ts), which also asks for
 * the second factor the staff pages ask for.
 */
export function isStaff(role: Role): boolean {
  return atLeast(role, "cast");
}

/** Managers: change roles, decide applications, manage events; the site must always keep one. */
export function isManager(role: Role): boolean {
  return atLeast(role, "manager");
}

/** The roles a rule admits, for database queries ("where role in ..."). */
export function rolesWhere(rule: (role: Role) => boolean): Role[] {
  return ROLES.filter(rule);
}

export const APPLICATION_STATUSES = ["pending", "accepted", "rejected"] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export const ROLE_PREFERENCES = ["player", "cast"] as const;
export type RolePreference = (typeof ROLE_PREFERENCES)[number];

export const EVENT_STATUSES = ["future", "past", "cancelled"] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const PAYMENT_STATUSES = ["paid", "unpaid"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
