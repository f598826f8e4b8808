/**
 * What a member is told about signing in with Discord and linking it. The outcome travels in
 * the address (`?discord=not-linked`), so a page shows it after a redirect, without
 * JavaScript; only these fixed codes are read, never text from the address.
 */
export const DISCORD_NOTICES = {
  "not-linked":
    "This Discord account is not linked to a Hopewell account. Sign in with your email and password, then link Discord under Profile, Sign-in methods.",
  "linked-elsewhere":
    "This Discord account is already linked to another Hopewell account. Unlink it there first, or link a different Discord account.",
  expired:
    "This Discord sign-in could not be checked: it has expired, was started in another browser, or its address was changed. Please start again.",
  cancelled: "Signing in with Discord was cancelled.",
  failed: "Discord could not confirm who you are. Please try again.",
  "link-failed": "Discord could not be linked. Please try again.",
  "too-many": "Too many Discord sign-ins from this connection. Please wait a few minutes and try again.",
  linked: "Discord is linked. You can now sign in with Discord.",
  // The same words as ACCOUNT_SUSPENDED_MESSAGE (app/identity/suspension.server.ts), which every other way in shows.
  suspended: "This account is suspended. Contact the club's managers.",
} as const;

export type DiscordNotice = keyof typeof DISCORD_NOTICES;

/** The notice named by `?discord=` in `search`, or null for none (or an unknown code). */
export function discordNoticeOf(search: URLSearchParams): DiscordNotice | null {
  const code = search.get("discord");
  return code !== null && Object.hasOwn(DISCORD_NOTICES, code) ? (code as DiscordNotice) : null;
}

/** Outcomes that are good news; every other notice is an error. */
export function isGoodDiscordNotice(notice: DiscordNotice): boolean {
  return notice === "linked";
}

/** The answers to "Unlink Discord" on the profile's "Sign-in methods". */
export const DISCORD_UNLINK_MESSAGES = {
  unlinked: "Discord is unlinked. You can no longer sign in with it.",
  onlyWay:
    "Discord is your only way to sign in, so it cannot be unlinked. Set a password first (with a link by email), then unlink Discord.",
  signInAgain:
    "For your safety, a sign-in method can be removed only within a day of signing in. Sign out, sign in again, then unlink Discord.",
  notLinked: "No Discord account is linked to yours.",
  failed: "Discord could not be unlinked. Please try again.",
} as const;
