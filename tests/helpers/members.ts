import { eq } from "drizzle-orm";
import type { Role } from "~/game/roles";
import { signIn, signUp } from "~/server/accounts.server";
import { database } from "~/server/db/client.server";
import { profiles } from "~/server/db/schema";
import { config } from "~/server/config.server";
import { cookieHeader, enrolTotp, signInWithTotp } from "./two-factor";

let counter = 0;

/**
 * A member of `role` with a password, signed in: returns their id and the Cookie header to send.
 * A member whose role must prove a second factor for their tools (managers, with
 * REQUIRE_MANAGER_2FA on as it is by default) enrols an authenticator app and signs in with a
 * code from it, so their session is aal2 like a real manager's; `secondFactor` forces either way.
 */
export async function signedInMember(role: Role, password = "Lantern#1877", options: { secondFactor?: boolean } = {}) {
  const n = ++counter;
  const email = `${role}${n}-${Date.now()}@example.com`;
  const outcome = await signUp({ firstName: `Test${n}`, lastName: role, email, password }, `192.0.2.${n}`);
  if (!outcome.ok) throw new Error(`sign-up failed: ${outcome.message}`);
  const db = await database();
  const [profile] = await db.update(profiles).set({ role }).where(eq(profiles.email, email)).returning({ id: profiles.id });
  const address = `198.51.100.${n}`;
  const signedIn = await signIn({ email, password }, new Request("http://localhost/auth"), address);
  if (!signedIn.ok) throw new Error(`sign-in failed: ${signedIn.message}`);
  const passwordCookie = cookieHeader(signedIn.setCookies);
  const { requireManager, requireCast } = config().twoFactor;
  const secondFactor = options.secondFactor ?? ((role === "manager" && requireManager) || (role === "cast" && requireCast));
  const member = { id: profile!.id, email, password, firstName: `Test${n}` };
  if (!secondFactor) return { ...member, cookie: passwordCookie, totpUri: undefined, backupCodes: undefined };
  const { uri, backupCodes } = await enrolTotp({ ...member, cookie: passwordCookie });
  const cookie = await signInWithTotp(email, password, uri, address);
  return { ...member, cookie, totpUri: uri, backupCodes };
}
