import { canBuildCharacter, isStaff, isManager, type Role } from "~/game/roles";

/** Who may use a route. Every route pattern of app/routes.ts has exactly one entry. */
export type Access = "anyone" | "member" | "character" | "staff" | "manager";

/** Each level's rule, the same functions the pages and the domain use (app/game/roles.ts). */
export const ACCESS_RULES: Record<Exclude<Access, "anyone">, (role: Role) => boolean> = {
  member: () => true,
  character: canBuildCharacter,
  staff: isStaff,
  manager: isManager,
};

/** True when a member of `role` may use what `access` guards. */
export function roleHasAccess(role: Role, access: Exclude<Access, "anyone">): boolean {
  return ACCESS_RULES[access](role);
}

/** A route open to one level for reading and a narrower one for its actions (POST and the like). */
export type RouteAccess = Access | { read: Access; change: Access };

/**
 * The one table of route permissions, keyed by React Router's route pattern.
 * A pattern missing here is refused for everyone (deny by default), and
 * tests/unit/access.test.ts fails when a route of app/routes.ts has no entry.
 */
export const ROUTE_ACCESS: Record<string, RouteAccess> = {
  "/": "anyone",
  "/rulebook": "anyone",
  "/rulebook/document": "anyone",
  "/locations": "anyone",
  "/location": "anyone",
  "/auth": "anyone",
  // Sign-in with Discord: leaving for Discord, and coming back (a 404 when it is not configured).
  "/auth/discord": "anyone",
  "/auth/discord/callback": "anyone",
  // Asking for a sign-in code (CAPTCHA, throttled) and signing in with it.
  "/auth/email-code": "anyone",
  // The second step of signing in (the library's challenge cookie), or a signed-in member's step-up.
  "/auth/two-factor": "anyone",
  "/login": "anyone",
  "/logout": "anyone",
  // Signing in with a passkey (JSON, from /auth's page): limited per client address.
  "/auth/passkey/options": "anyone",
  "/auth/passkey/verify": "anyone",
  "/forgot-password": "anyone",
  "/reset-password": "anyone",
  "/captcha/challenge": "anyone",
  // Only with the one-time token the server prints while no manager exists; the route checks it.
  "/setup": "anyone",
  "/events": "member",
  "/events/manage": "manager",
  // The calendar feed, for calendar apps that send no cookie: only at the member's own secret address,
  // which the route checks on every reading (a member who may see /events, not suspended or deleted).
  "/events/calendar/:memberId/:key": "anyone",
  // One event's calendar file, downloaded from /events with the member's session.
  "/events/:id/calendar.ics": "member",
  // Back from Stripe's checkout: the member's own purchase only.
  "/events/ticket": "member",
  // Stripe's back link from its checkout page: ends the member's own open checkout.
  "/events/ticket/cancel": "member",
  // Stripe's notices of ticket payments: no session, each one signed by Stripe and checked (features/tickets/webhook.server.ts).
  "/webhooks/stripe": "anyone",
  "/application": "member",
  "/character": "character",
  "/pels": "member",
  "/merchant-orders": "member",
  "/research": "member",
  "/research/upload": "member",
  // The author, cast and managers; the loader checks which.
  "/research/:id/file": "member",
  // Accepted members' costume photos for the upcoming events they are registered for.
  "/costume": "character",
  // The same form's upload when JavaScript runs, answered in JSON so the page can show its progress.
  "/costume/upload": "character",
  // A costume photo and its thumbnail: the owner, cast and managers; the loader checks which.
  "/costume/photos/:id": "member",
  "/costume/photos/:id/thumb": "member",
  "/letters": "member",
  "/letters/recipients": "member",
  // A thread of letters: the loader shows only the member's own letters and those delivered to them (404 otherwise).
  "/letters/:id": "member",
  "/profile": "member",
  // Each member's own sessions only: the library lists and ends the signed-in member's.
  "/profile/devices": "member",
  // The signed-in member's own password, checked against the current one.
  "/profile/password": "member",
  // The signed-in member's own passkeys: the library lists, adds and removes only theirs.
  "/profile/passkeys": "member",
  "/profile/passkeys/options": "member",
  "/profile/passkeys/verify": "member",
  // The signed-in member's own sign-in methods: link and unlink their Discord account.
  "/profile/sign-in-methods": "member",
  // The signed-in member's own address: changed with the current password, confirmed from the new address.
  "/profile/email": "member",
  // The link sent to the new address; the library checks it was made for the signed-in member.
  "/profile/email/confirm": "member",
  // The signed-in member's own second factor, after the password; never behind the aal2 gate.
  "/profile/two-factor": "member",
  "/profile/two-factor/backup-codes": "member",
  // The signed-in member's own data: a copy to take out, and deleting the account (after the password).
  "/profile/data": "member",
  // A prepared copy: the loader finds only the signed-in member's own (404 for anyone else's).
  "/profile/data/:id/file": "member",
  // The signed-in member's own record; an entry opens only for its author (404 for anyone else's).
  "/profile/record": "member",
  "/profile/record/:kind/:id": "member",
  // The messages the managers sent the signed-in member: only their own copies (features/messages).
  "/notices": "member",
  // An unsubscribe link from a managers' message: no sign-in; it changes only the member and choice
  // its token was made for (features/messages/message-email.server.ts), and mail programs post to it (RFC 8058).
  "/unsubscribe": "anyone",
  // Where a member lands once their account is deleted (signed out by then).
  "/account-deleted": "anyone",
  // Cast read the tools; only managers change roles or decide applications.
  "/tools": { read: "staff", change: "manager" },
  // One member's whole account, and inviting a new one: managers only, every change audited.
  "/tools/members/invite": "manager",
  "/tools/members/:id": "manager",
  // Deleting a member's account: managers only, audited.
  "/tools/members/:id/delete": "manager",
  // The club's own facts (the FAQ, the welcome, the price list, the questions…): managers change
  // them, every save audited with before and after.
  "/tools/club": "manager",
  "/tools/club/faq": "manager",
  "/tools/club/welcome": "manager",
  "/tools/club/merchant": "manager",
  "/tools/club/cabins": "manager",
  "/tools/club/factions": "manager",
  "/tools/club/pel-questions": "manager",
  "/tools/club/application-questions": "manager",
  "/tools/club/locations": "manager",
  "/tools/club/rulebook": "manager",
  "/tools/club/rulebook/upload": "manager",
  // Messages to members: managers write and send them, and read the record of each; every send audited.
  "/tools/messages": "manager",
  "/tools/messages/new": "manager",
  "/tools/messages/:id": "manager",
  // Managers only: cast are kept out (docs/product.md#roles-and-access).
  "/emergency-contacts": "manager",
  // The event-day sheet holds attendees' emergency contacts: managers only, like the list above.
  "/tools/event-day": "manager",
  "/tools/event-day/:eventId": "manager",
  // Failed and waiting emails name members' addresses: managers only.
  "/outbox": "manager",
  // Staff read who attends; managers also see ticket payments and ask Stripe for missed ones.
  "/attendance": { read: "staff", change: "manager" },
  "/attendance/:eventId/csv": "staff",
  "/attendance-tool": "manager",
  "/view-pels": "staff",
  "/view-merchant-orders": "staff",
  "/view-research": "staff",
  // Staff read every letter, release held ones and answer those to NPCs (audited).
  "/view-letters": "staff",
  // Costume photos per event: cast and managers approve or ask for changes (audited).
  "/view-costumes": "staff",
  "/*": "anyone",
};

export type AccessDecision = "allow" | "sign-in" | "forbidden";

/** React Router joins route paths without a leading slash ("auth", "*"); the table writes "/auth", "/*". */
export function normalizePattern(pattern: string): string {
  return `/${pattern.replace(/^\/+/, "")}`;
}

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function decideAccess(pattern: string, role: Role | undefined, method = "GET"): AccessDecision {
  const entry = ROUTE_ACCESS[normalizePattern(pattern)];
  if (entry === undefined) return "forbidden";
  const access = typeof entry === "string" ? entry : READ_METHODS.has(method) ? entry.read : entry.change;
  if (access === "anyone") return "allow";
  if (role === undefined) return "sign-in";
  return roleHasAccess(role, access) ? "allow" : "forbidden";
}
