import { data, redirect } from "react-router";
import { isManager } from "~/game/roles";
import { TWO_FACTOR_MESSAGES } from "~/forms/two-factor";
import type { SessionUser } from "~/lib/navigation";
import { hasSecondFactor } from "./two-factor.server";

/** Why /profile/two-factor was opened by the gate: the page says so. */
export type SecondFactorReason = "manager" | "cast";

/**
 * The answer to a member whose session is not proven by a second factor on a page that needs
 * one (app/server/assurance.server.ts). A page load goes where they can give one: to set up an
 * authenticator app when they have no factor, else to the code page, which raises this session;
 * both come back here afterwards. A post is refused outright.
 */
export async function refuseWithoutSecondFactor(user: SessionUser, url: URL, isRead: boolean): Promise<never> {
  if (!isRead) throw data(TWO_FACTOR_MESSAGES.refused, { status: 403 });
  const target = url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/") + stripDataParams(url.search);
  const redirectTo = new URLSearchParams({ redirectTo: target });
  if (await hasSecondFactor(user.id)) throw redirect(`/auth/two-factor?${redirectTo}`);
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
