/** Member roles, from least to most trusted (SPEC section 6). */
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

/** Roles that have been accepted into the game and may build a character. */
export const CHARACTER_ROLES: readonly Role[] = ["player", "cast", "manager"];
/** Roles that may use the staff review tools. */
export const STAFF_ROLES: readonly Role[] = ["cast", "manager"];

export const APPLICATION_STATUSES = ["pending", "accepted", "rejected"] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export const ROLE_PREFERENCES = ["player", "cast"] as const;
export type RolePreference = (typeof ROLE_PREFERENCES)[number];

export const EVENT_STATUSES = ["future", "past", "cancelled"] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const PAYMENT_STATUSES = ["paid", "unpaid"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
