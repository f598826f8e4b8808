import { data, redirect } from "react-router";
import { isManager } from "~/game/roles";
import { SITE_MESSAGES } from "./forms/messages";
import type { SessionUser } from "~/lib/navigation";
import { hasAnyFactor, hasPasskey } from "~/identity/factors.server";

/** Why /profile/two-factor was opened by the gate: the page says so. */
export type SecondFactorReason = "manager" | "cast";

/**
 * The answer to a member whose session is not proven by a second factor on a page that needs
 * one (app/web/assurance.server.ts). A page load goes where they can give one: to set up an
 * authenticator app when they have no factor, else to the code page, which raises this session;
 * both come back here afterwards. A post is refused outright.
 */
export async function refuseWithoutSecondFactor(user: SessionUser, url: URL, isRead: boolean): Promise<never> {
  if (!isRead) throw data(SITE_MESSAGES.secondFactorRequired, { status: 403 });
  const target = url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/") + stripDataParams(url.search);
  const redirectTo = new URLSearchParams({ redirectTo: target });
  if (await hasAnyFactor(user.id)) throw redirect(`/auth/two-factor?${redirectTo}`);
  const reason: SecondFactorReason = isManager(user.role) ? "manager" : "cast";
  throw redirect(`/profile/two-factor?required=${reason}&${redirectTo}`);
}

/** React Router's data requests add `_routes`; the page address to come back to has none. */
function stripDataParams(search: string): string {
  const params = new URLSearchParams(search);
  params.delete("_routes");
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * The pages that add, change or remove a member's factors. A session proven by one factor
 * (a password, an emailed code, Discord) may use them only while the member has no factor at
 * all: otherwise whoever held the mailbox could sign in by emailed code, add an authenticator
 * app or a passkey of their own, and have two factors. A member with an app or a phone is
 * asked for it on every signed-in page already (assurance.server.ts); this covers a member
 * whose only factor is a passkey.
 */
const FACTOR_PAGES = new Set([
  "/profile/two-factor",
  "/profile/two-factor/backup-codes",
  "/profile/passkeys",
  "/profile/passkeys/options",
  "/profile/passkeys/verify",
]);

export async function needsSecondFactorToManageFactors(pattern: string, user: SessionUser): Promise<boolean> {
  if (user.assuranceLevel === "aal2" || !FACTOR_PAGES.has(pattern)) return false;
  return hasPasskey(user.id);
}
