import { INVITATION_LINK_DAYS, PASSWORD_LINK_HOURS } from "./link-lifetimes";
import type { BetterAuthOptions } from "better-auth/minimal";
import type { drizzleAdapter as DrizzleAdapter } from "better-auth/adapters/drizzle";
import type { AssuranceLevel } from "~/lib/navigation";
import { AUTH_COOKIE_PREFIX } from "./auth-cookie.server";
import { emailCodePlugin, emailVerificationOptions } from "./auth-email.server";
import { config } from "~/platform/config.server";
import { database, type Database } from "~/platform/db/client.server";
import { accounts, passkeys, profiles, sessions, twoFactors, verifications } from "~/platform/db/schema";
import { DISCORD_ACCOUNT_LINKING, discordAuthPlugins } from "./discord-oauth.server";
import { withoutParameters } from "~/platform/log-errors.server";
import { logger } from "~/platform/logger.server";
import { passwordResetEmail } from "~/platform/mail/templates.server";
import { queueEmail } from "~/platform/outbox/outbox.server";
import { hashPassword, verifyPassword } from "./passwords.server";
import { resetDelivery } from "./reset-delivery.server";
import { siteSecret } from "~/platform/secrets.server";
import { refuseSuspendedMember } from "./suspension.server";
import { twoFactorPlugin } from "./two-factor-plugin.server";

/**
 * The header the site's own server writes on every request it hands to the app, holding the
 * client's address (`clientAddress` of web/request-context.ts); any copy the client sent is
 * replaced. The auth library reads the address it records with a session from this header
 * alone, so it follows the site's rule (TRUST_PROXY) and never a client-sent X-Forwarded-For.
 */
export const CLIENT_ADDRESS_HEADER = "x-hopewell-client-address";

/** How long a session lasts, and how often its expiry is pushed back while it is used. */
export const SESSION_EXPIRES_IN_S = 30 * 24 * 60 * 60;
export const SESSION_UPDATE_AGE_S = 24 * 60 * 60;

/**
 * The library's endpoints that create a session proven by more than a password: a second
 * factor checked after the password, or a passkey (something the member has, unlocked by
 * something they are or know). Every other way in (password, emailed code, OAuth) is aal1.
 */
const AAL2_ENDPOINTS = new Set([
  "/two-factor/verify-totp",
  "/two-factor/verify-backup-code",
  "/two-factor/verify-otp",
  "/passkey/verify-authentication",
]);

export function assuranceLevelOf(endpointPath: string | undefined): AssuranceLevel {
  return endpointPath && AAL2_ENDPOINTS.has(endpointPath) ? "aal2" : "aal1";
}

/** The member whose session the library's endpoint runs under (its documented `ctx.context.session`), if any. */
function signedInAs(endpoint: unknown): string | undefined {
  return (endpoint as { context?: { session?: { user?: { id?: string } } | null } } | null | undefined)?.context
    ?.session?.user?.id;
}

/** The site's public origin, for links in emails. */
export function siteOrigin(): string {
  return config().appUrl?.replace(/\/$/, "") ?? `http://localhost:${config().port}`;
}

/** The member fields the library reads and writes on `profiles`, beyond its own. */
const PROFILE_FIELDS = {
  firstName: { type: "string", required: true, input: true },
  lastName: { type: "string", required: true, input: true },
  // Never settable by the member's own requests; managers change it through our own code.
  role: { type: "string", required: false, defaultValue: "applicant", input: false },
} as const;

/**
 * Where the library's password links go: the usual reset email, or, for a manager's invitation
 * or hand-over link (member-admin.server.ts), the way that request asked for.
 */
function sendResetPassword(db: Database) {
  return async ({ user, token }: { user: { email: string; name: string }; token: string }) => {
    const link = `${siteOrigin()}/reset-password?token=${encodeURIComponent(token)}`;
    const firstName = (user as { firstName?: string }).firstName ?? user.name;
    const delivery = resetDelivery.getStore();
    if (delivery) return delivery.deliver({ email: user.email, firstName }, link);
    await queueEmail(db, passwordResetEmail({ to: user.email, firstName, link }), { logText: true });
  };
}

/**
 * What both instances share: the club's name and address, the secret, the tables they use, and
 * the library's complaints through our logger, so its errors are logged without the failed
 * statement's values (a session token, a reset token) like every other error.
 */
function sharedOptions(
  db: Database,
  secret: string,
  drizzleAdapter: typeof DrizzleAdapter,
  schema: Record<string, unknown>,
) {
  return {
    appName: "Hopewell",
    baseURL: siteOrigin(),
    secret,
    database: drizzleAdapter(db, { provider: "pg", schema, transaction: true }),
    // Our page actions apply rate limits and the CAPTCHA themselves; the library's HTTP
    // endpoints are not mounted, so its own limiter would never see a request.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    logger: {
      level: "error",
      log: (level, message, ...args) => {
        const error = args.find((arg) => arg instanceof Error);
        logger[level === "debug" ? "debug" : level]({ err: error }, `auth: ${withoutParameters(message)}`);
      },
    },
  } satisfies BetterAuthOptions;
}

/**
 * The auth library is loaded on first use (the first request carrying a session cookie, a
 * sign-in, a sign-up or a reset), not at start-up: loading it took most of a second, and
 * signed-out visitors never need it. Its minimal build is the one meant for a database
 * adapter: it leaves out the query builder the full build brings for its own database
 * connections, which cost 11 MB of memory and a tenth of a second to load.
 */
async function createAuth(db: Database, secret: string) {
  const [{ betterAuth }, { drizzleAdapter }, { passkey }, twoFactor] = await Promise.all([
    import("better-auth/minimal"),
    import("better-auth/adapters/drizzle"),
    import("@better-auth/passkey"),
    twoFactorPlugin(db),
  ]);
  return betterAuth({
    ...sharedOptions(db, secret, drizzleAdapter, { profiles, sessions, accounts, verifications, passkeys, twoFactors }),
    user: {
      modelName: "profiles",
      additionalFields: PROFILE_FIELDS,
      // Confirmed by a link to the new address (auth-email.server.ts, routes/profile/email.tsx).
      changeEmail: { enabled: true },
    },
    session: {
      modelName: "sessions",
      expiresIn: SESSION_EXPIRES_IN_S,
      updateAge: SESSION_UPDATE_AGE_S,
      additionalFields: {
        // Set only by the hook below, from the way the session was proven.
        assuranceLevel: { type: "string", required: false, defaultValue: "aal1", input: false },
      },
    },
    databaseHooks: {
      session: {
        create: {
          // Every way in ends here: a suspended member is refused (suspension.server.ts). A
          // member replacing their own session (a new password, a second factor turned on) is
          // signed in, which a suspended member never is, and is not looked up: the library may
          // be inside its own transaction then, and PGlite has a single connection.
          before: async (session, endpoint) => {
            if (signedInAs(endpoint) !== session.userId) await refuseSuspendedMember(db, session.userId);
            return { data: { ...session, assuranceLevel: assuranceLevelOf(endpoint?.path) } };
          },
        },
      },
    },
    // Discord's tokens are kept encrypted with the site's secret.
    account: { modelName: "accounts", encryptOAuthTokens: true, accountLinking: DISCORD_ACCOUNT_LINKING },
    verification: { modelName: "verifications" },
    emailVerification: emailVerificationOptions(db, siteOrigin),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      autoSignIn: false,
      revokeSessionsOnPasswordReset: true,
      // Reset emails and managers' hand-over links (member-admin.server.ts); invitations are
      // made by an instance of their own, with a longer lifetime (invitationAuth below).
      resetPasswordTokenExpiresIn: PASSWORD_LINK_HOURS * 60 * 60,
      password: { hash: hashPassword, verify: verifyPassword },
      sendResetPassword: sendResetPassword(db),
    },
    plugins: [
      // The relying party is the site's host (APP_URL): a passkey works only there, over https
      // (or on localhost), and only answers made on the site's own origin are accepted.
      passkey({
        rpID: new URL(siteOrigin()).hostname,
        rpName: "Hopewell",
        origin: siteOrigin(),
        schema: { passkey: { modelName: "passkeys" } },
      }),
      ...(await discordAuthPlugins(siteOrigin())),
      await emailCodePlugin(db, siteOrigin),
      twoFactor,
    ],
    // Second factors (app/features/two-factor/two-factor.server.ts).
    advanced: {
      cookiePrefix: AUTH_COOKIE_PREFIX,
      useSecureCookies: config().appUrl?.startsWith("https:") ?? false,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", path: "/" },
      // The address a session records (shown on /profile/devices) is the one the site's server
      // worked out (http/app.ts, TRUST_PROXY), never an X-Forwarded-For the client sent.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
  });
}

export type Auth = Awaited<ReturnType<typeof createAuth>>;

/**
 * The library has one lifetime for every password-reset token of an instance, and an
 * invitation must last longer than a reset link (7 days against an hour). Invitations are made
 * by this second, minimal instance on the same tables and secret: its only use is
 * `requestPasswordReset`, whose token the main instance then checks and uses like any reset
 * token (the row carries its own expiry). It creates no sessions and sets no cookies.
 */
async function createInvitationAuth(db: Database, secret: string) {
  const [{ betterAuth }, { drizzleAdapter }] = await Promise.all([
    import("better-auth/minimal"),
    import("better-auth/adapters/drizzle"),
  ]);
  return betterAuth({
    ...sharedOptions(db, secret, drizzleAdapter, { profiles, sessions, accounts, verifications }),
    user: { modelName: "profiles", additionalFields: PROFILE_FIELDS },
    session: { modelName: "sessions" },
    account: { modelName: "accounts" },
    verification: { modelName: "verifications" },
    emailAndPassword: {
      enabled: true,
      resetPasswordTokenExpiresIn: INVITATION_LINK_DAYS * 24 * 60 * 60,
      password: { hash: hashPassword, verify: verifyPassword },
      sendResetPassword: sendResetPassword(db),
    },
    advanced: { cookiePrefix: AUTH_COOKIE_PREFIX },
  });
}

/** One value per database, made on first use and kept: tests give each file its own database. */
function perDatabase<T>(make: (db: Database) => Promise<T>): () => Promise<T> {
  const made = new WeakMap<Database, Promise<T>>();
  return async () => {
    const db = await database();
    let value = made.get(db);
    if (!value) {
      value = make(db);
      made.set(db, value);
    }
    return value;
  };
}

/**
 * The site's server secret (AUTH_SECRET, else the one kept in the database): it signs session
 * cookies, and the calendar feed's per-member addresses are made with it (calendar-feed.server.ts).
 */
export const authSecret = perDatabase((db) => siteSecret(db, "auth_secret"));

export const getAuth: () => Promise<Auth> = perDatabase(async (db) => createAuth(db, await authSecret()));

/** The instance that makes invitation links (member-admin.server.ts). */
export const getInvitationAuth = perDatabase(async (db) => createInvitationAuth(db, await authSecret()));

/** A refusal by the auth library: its HTTP status, its error code (e.g. "INVALID_TOKEN") and its message. */
export type AuthRefusal = { status: number; code: string | undefined; message: string | undefined };

/**
 * The library's refusal carried by `error` (its public `APIError`), or null for anything
 * else (a bug, a database failure). Its class is loaded with the library, which is already
 * in memory whenever one of its calls has failed.
 */
export async function authRefusal(error: unknown): Promise<AuthRefusal | null> {
  const { APIError } = await import("better-auth/api");
  if (!(error instanceof APIError)) return null;
  return {
    status: error.statusCode,
    code: error.body?.code,
    message: error.body?.message || error.message || undefined,
  };
}
