import { makeSignature } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import type { Role } from "~/game/roles";
import type { AssuranceLevel } from "~/lib/navigation";
import { getAuth } from "~/identity/auth.server";
import { config } from "~/platform/config.server";
import { database } from "~/platform/db/client.server";
import { profiles, sessions } from "~/platform/db/schema";
import { hashPassword } from "~/identity/passwords.server";
import { enrolTotp } from "./two-factor";

/**
 * Members and sessions made directly in the database, for the tests whose subject is not
 * signing in. The rows are the ones a sign-up and a sign-in leave (made through the auth
 * library's own adapter, and the session cookie signed as the library signs it), so every page
 * sees a member exactly as after a real sign-in; what is skipped is the work a sign-in does to
 * get there (Argon2, rate limits, the CAPTCHA). Signing in itself is tested through the pages
 * and `signIn` (tests/features/accounts/auth-forms and email-code, tests/features/two-factor/,
 * tests/features/passkeys/, tests/features/discord/...).
 */

const DEFAULT_PASSWORD = "Lantern#1877";

let counter = 0;

/**
 * Argon2 costs a tenth of a second or more on purpose: one hash per password serves every member
 * a test process makes with it (each still verifies against it like any stored hash).
 */
const hashes = new Map<string, Promise<string>>();
function storedHash(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
}

export type TestMember = {
  id: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  role: Role;
};

/** A member of `role` with a password, as a sign-up (and a manager's role change) leaves them: not signed in. */
export async function createMember(
  role: Role,
  options: { password?: string; email?: string; firstName?: string; lastName?: string; emailVerified?: boolean } = {},
): Promise<TestMember> {
  const n = ++counter;
  const password = options.password ?? DEFAULT_PASSWORD;
  const firstName = options.firstName ?? `Test${n}`;
  const lastName = options.lastName ?? role;
  const email = (options.email ?? `${role}${n}-${Date.now()}@example.com`).toLowerCase();
  const { internalAdapter } = await (await getAuth()).$context;
  const user = await internalAdapter.createUser(
    {
      name: `${firstName} ${lastName}`,
      email,
      emailVerified: options.emailVerified ?? false,
      firstName,
      lastName,
      role,
    },
    { method: "email-password" },
  );
  await internalAdapter.linkAccount({
    userId: user.id,
    providerId: "credential",
    accountId: user.id,
    password: await storedHash(password),
  });
  return { id: user.id, email, password, firstName, lastName, role };
}

/**
 * A session for `member`, as a sign-in would make it (aal2 as after a second factor or a
 * passkey): the Cookie header a browser would send with it.
 */
export async function sessionCookie(
  member: { id: string },
  options: { assuranceLevel?: AssuranceLevel; ipAddress?: string; userAgent?: string } = {},
): Promise<string> {
  const context = await (await getAuth()).$context;
  const session = await context.internalAdapter.createSession(member.id, false, {
    ipAddress: options.ipAddress ?? `198.51.100.${(counter % 250) + 1}`,
    userAgent: options.userAgent ?? "",
  });
  if (options.assuranceLevel === "aal2") {
    // The library's hook records how a session was proven from the endpoint that made it, and none did here.
    await (await database()).update(sessions).set({ assuranceLevel: "aal2" }).where(eq(sessions.id, session.id));
  }
  const signed = `${session.token}.${await makeSignature(session.token, context.secret)}`;
  return `${context.authCookies.sessionToken.name}=${encodeURIComponent(signed)}`;
}

/**
 * A member of `role`, signed in: their details and the Cookie header to send. A member whose
 * role must prove a second factor for their tools (managers, with REQUIRE_MANAGER_2FA on as it is
 * by default) gets an aal2 session, as after giving a code. `secondFactor: true` enrols an
 * authenticator app for real (the tests of second factors compute its codes from `totpUri`);
 * `secondFactor: false` leaves any role with a password-only (aal1) session.
 */
export async function signedInMember(
  role: Role,
  password = DEFAULT_PASSWORD,
  options: { secondFactor?: boolean } = {},
) {
  const member = await createMember(role, { password });
  const { requireManager, requireCast } = config().twoFactor;
  if (options.secondFactor) {
    const cookie = await sessionCookie(member);
    const { uri, backupCodes, cookie: proven } = await enrolTotp({ ...member, cookie });
    return { ...member, cookie: proven, totpUri: uri, backupCodes };
  }
  const needsSecondFactor =
    options.secondFactor === undefined && ((role === "manager" && requireManager) || (role === "cast" && requireCast));
  const cookie = await sessionCookie(member, { assuranceLevel: needsSecondFactor ? "aal2" : "aal1" });
  return {
    ...member,
    cookie,
    totpUri: undefined as string | undefined,
    backupCodes: undefined as string[] | undefined,
  };
}

/** A member's choices of the managers' messages as stored: club news, and messages about their events. */
export async function messageChoicesOf(id: string): Promise<{ news: boolean; events: boolean } | undefined> {
  const db = await database();
  const [choices] = await db
    .select({ news: profiles.newsEmails, events: profiles.eventEmails })
    .from(profiles)
    .where(eq(profiles.id, id));
  return choices;
}
