import path from "node:path";
import { EnvSchema, type Environment } from "./environment.server";

/** The site's settings, made once at start-up from the environment (environment.server.ts). */
export type Config = ReturnType<typeof toConfig>;

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Uploaded files go to S3 when asked (STORAGE=s3) or when a bucket is named; else under DATA_DIR. */
function storageConfig(env: Environment) {
  const useS3 = env.STORAGE === "s3" || (env.STORAGE === undefined && env.S3_BUCKET !== undefined);
  if (!useS3 || !env.S3_BUCKET) return { kind: "local" as const };
  const prefix = env.S3_PREFIX ? env.S3_PREFIX.replace(/\/?$/, "/") : "";
  return {
    kind: "s3" as const,
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    credentials:
      env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    prefix,
  };
}

export type StorageConfig = ReturnType<typeof storageConfig>;

const DURATION_UNITS_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
function durationMs(text: string): number {
  return Number(text.slice(0, -1)) * DURATION_UNITS_MS[text.at(-1) as keyof typeof DURATION_UNITS_MS];
}

/** Sign-in with Discord (app/features/discord/discord-sign-in.server.ts): on when the app's client ID and secret are given. */
function discordSignInConfig(env: Environment) {
  if (!env.DISCORD_CLIENT_ID || !env.DISCORD_CLIENT_SECRET) return undefined;
  return {
    clientId: env.DISCORD_CLIENT_ID,
    clientSecret: env.DISCORD_CLIENT_SECRET,
    // Discord's own endpoints unless replaced (the tests point them at a local OAuth server).
    authorizationUrl: env.DISCORD_AUTHORIZATION_URL ?? "https://discord.com/oauth2/authorize",
    tokenUrl: env.DISCORD_TOKEN_URL ?? "https://discord.com/api/oauth2/token",
    userInfoUrl: env.DISCORD_USERINFO_URL ?? "https://discord.com/api/users/@me",
  };
}

function toConfig(env: Environment) {
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    env: env.NODE_ENV,
    isProduction: env.NODE_ENV === "production",
    port: env.PORT,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    appUrl: env.APP_URL,
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    social: {
      socialNetwork: env.SOCIAL_NETWORK_URL,
      photoNetwork: env.PHOTO_NETWORK_URL,
      chatCommunity: env.CHAT_COMMUNITY_URL,
    },
    rulebook: {
      embedUrl: env.RULEBOOK_EMBED_URL,
      pdfPath: env.RULEBOOK_PDF ? path.join(dataDir, env.RULEBOOK_PDF) : undefined,
    },
    mapEmbedUrl: env.MAP_EMBED_URL,
    /** The club's clocks: event times on the events page and in calendar files, and which day it is. */
    clubTimeZone: env.CLUB_TIME_ZONE,
    authSecret: env.AUTH_SECRET,
    captcha: {
      provider: env.CAPTCHA_PROVIDER,
      siteKey: env.CAPTCHA_SITE_KEY,
      secretKey: env.CAPTCHA_SECRET_KEY,
      verifyUrl: env.CAPTCHA_VERIFY_URL,
      /** The most work a challenge asks (see captcha.server.ts), lowered by the test suite only; production's when unset. */
      testWork: env.CAPTCHA_TEST_WORK,
    },
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    signupThrottleMs: env.SIGNUP_THROTTLE_MS,
    signInAddressLimit: env.SIGN_IN_ADDRESS_LIMIT,
    signInAccountLimit: env.SIGN_IN_ACCOUNT_LIMIT,
    emailCode: { expiresS: env.EMAIL_CODE_EXPIRES_S, resendS: env.EMAIL_CODE_RESEND_S },
    discord: { webhookUrl: env.DISCORD_WEBHOOK_URL, username: env.DISCORD_USERNAME, avatarUrl: env.DISCORD_AVATAR_URL },
    discordSignIn: discordSignInConfig(env),
    // Tickets sold through Stripe Checkout (app/features/tickets/); the events' payment links while unset.
    // STRIPE_API_URL points the SDK at a stand-in of Stripe's API (the tests); unset, Stripe's own.
    stripe:
      env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
        ? { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, apiUrl: env.STRIPE_API_URL }
        : undefined,
    // Text messages (second-factor codes) through a gateway's webhook; off while the address is unset.
    sms: { webhookUrl: env.SMS_WEBHOOK_URL, token: env.SMS_WEBHOOK_TOKEN },
    outbox: { pollMs: env.OUTBOX_POLL_MS, retryBaseMs: env.OUTBOX_RETRY_BASE_MS },
    messages: { perMinute: env.MESSAGES_PER_MINUTE },
    listenHeartbeatMs: env.LISTEN_HEARTBEAT_MS,
    storage: storageConfig(env),
    // Who must have proven a second factor (an aal2 session) to use the staff and manager pages.
    twoFactor: { requireManager: env.REQUIRE_MANAGER_2FA, requireCast: env.REQUIRE_CAST_2FA },
    // Letters to a player's character wait for staff to release them (else they arrive at once).
    letters: { needRelease: env.LETTERS_NEED_RELEASE },
    backup: {
      dir: env.BACKUP_DIR ? path.resolve(env.BACKUP_DIR) : undefined,
      everyMs: durationMs(env.BACKUP_EVERY),
      keep: env.BACKUP_KEEP,
    },
  };
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  // An empty variable means "not set": use the default.
  const given = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ""),
  );
  const result = EnvSchema.safeParse(given);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  return toConfig(result.data);
}

let current: Config | undefined;

/** The configuration of this process, parsed from `process.env` on first use. */
export function config(): Config {
  current ??= parseConfig(process.env);
  return current;
}

/** Forgets the parsed settings: the next use reads `process.env` again (tests that change it, between test files). */
export function resetConfig(): void {
  current = undefined;
}

/** Replaces settings for the rest of this process (tests lower throttles and point at local servers). */
export function overrideConfig(changes: Partial<Config>): void {
  current = { ...config(), ...changes };
}
