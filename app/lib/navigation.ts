import { canBuildCharacter, isStaff, type Role } from "~/game/roles";

/** The signed-in member as the navigation and pages see them. */
/**
 * How this session was proven: "aal1" by a password, an emailed code or an OAuth identity alone;
 * "aal2" after a second factor, or with a passkey.
 */
export type AssuranceLevel = "aal1" | "aal2";

/** `twoFactorEnabled`: the member has a second factor, so every session of theirs must be proven by it. */
export type SessionUser = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  assuranceLevel: AssuranceLevel;
  twoFactorEnabled: boolean;
};

export type NavLink = { to: string; label: string };

export const PUBLIC_LINKS: NavLink[] = [
  { to: "/rulebook", label: "Rulebook" },
  { to: "/locations", label: "Location" },
];

const FORM_LINKS: (NavLink & { allowed?: (role: Role) => boolean })[] = [
  { to: "/application", label: "Application" },
  { to: "/character", label: "Character Builder", allowed: canBuildCharacter },
  { to: "/pels", label: "Post-Event Letter" },
  { to: "/merchant-orders", label: "Merchant Order" },
  { to: "/research", label: "Research" },
  { to: "/costume", label: "Costume Photos", allowed: canBuildCharacter },
  { to: "/letters", label: "Write a Letter" },
];

/** The member forms a user of `role` may open, for the Forms menu. */
export function formLinksFor(role: Role): NavLink[] {
  return FORM_LINKS.filter((link) => !link.allowed || link.allowed(role)).map(({ to, label }) => ({ to, label }));
}

export function canUseTools(role: Role): boolean {
  return isStaff(role);
}
