import path from "node:path";
import { tzlib_get_timezones } from "timezones-ical-library";
import { z } from "zod";
import { SIGN_IN_ATTEMPTS_PER_ACCOUNT, SIGN_IN_ATTEMPTS_PER_ADDRESS, SIGNUP_THROTTLE_MS } from "./account-limits";
import { DEFAULT_CLUB_TIME_ZONE } from "../game/setting";

/**
 * Every setting the site reads from the environment, parsed once at start-up.
 * `.env.example` documents each one; keep the two in step.
 */
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" });

const CALENDAR_TIME_ZONES = new Set(tzlib_get_timezones(false) as string[]);

/**
 * A time zone name of the tz database ("America/New_York"), spelled as it is there: both this
 * runtime's clocks and the calendar files' time zone descriptions (VTIMEZONE) must know it.
 */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
  } catch {
    return false;
  }
  return CALENDAR_TIME_ZONES.has(name);
}

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((value) => value === "true" || value === "1" || value === "yes");

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().trim().optional(),
    DATA_DIR: z.string().trim().min(1).default("./data"),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// URL" }).optional(),
    APP_URL: httpUrl.optional(),
    TRUST_PROXY: booleanFlag.default(false),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(4_000),
    SOCIAL_NETWORK_URL: httpUrl.default("https://www.facebook.com/hopewelllarp"),
    PHOTO_NETWORK_URL: httpUrl.default("https://www.instagram.com/hopewelllarp"),
    CHAT_COMMUNITY_URL: httpUrl.default("https://discord.gg/hopewelllarp"),
    RULEBOOK_EMBED_URL: httpUrl.optional(),
    RULEBOOK_PDF: z
      .string()
      .trim()
      .regex(/^[^/\\]+\.pdf$/i, "must be the name of a .pdf file inside DATA_DIR")
      .optional(),
    MAP_EMBED_URL: httpUrl.optional(),
    CLUB_TIME_ZONE: z
      .string()
      .trim()
      .refine(isTimeZone, "must be a time zone name such as America/New_York")
      .default(DEFAULT_CLUB_TIME_ZONE),
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    CAPTCHA_PROVIDER: z.enum(["altcha", "turnstile", "hcaptcha"]).default("altcha"),
    CAPTCHA_SITE_KEY: z.string().trim().optional(),
    CAPTCHA_SECRET_KEY: z.string().trim().optional(),
    CAPTCHA_VERIFY_URL: httpUrl.optional(),
    SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
    MAIL_FROM: z.string().trim().min(3).default("Hopewell <no-reply@hopewell.local>"),
    DISCORD_WEBHOOK_URL: httpUrl.optional(),
    DISCORD_USERNAME: z.string().trim().min(1).max(80).default("Hopewell"),
    DISCORD_AVATAR_URL: httpUrl.optional(),
    DISCORD_CLIENT_ID: z.string().trim().max(100).optional(),
    DISCORD_CLIENT_SECRET: z.string().trim().max(200).optional(),
    DISCORD_AUTHORIZATION_URL: httpUrl.optional(),
    DISCORD_TOKEN_URL: httpUrl.optional(),
    DISCORD_USERINFO_URL: httpUrl.optional(),
    // Test-mode keys (sk_test_, rk_test_) sell nothing real: the guide's walk-through uses them first.
    STRIPE_SECRET_KEY: z
      .string()
      .trim()
      .regex(
        /^(sk|rk)_(test|live)_\S+$/,
        "must be a secret key (sk_test_... or sk_live_...) or a restricted key (rk_test_... or rk_live_...) from Stripe's dashboard, Developers → API keys; a publishable key (pk_...) will not do",
      )
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .trim()
      .regex(/^whsec_\S+$/, "must be the webhook endpoint's signing secret (whsec_...)")
      .optional(),
    STRIPE_API_URL: httpUrl.optional(),
    SMS_WEBHOOK_URL: httpUrl.optional(),
    SMS_WEBHOOK_TOKEN: z.string().trim().min(8, "must be at least 8 characters").max(500).optional(),
    SIGNUP_THROTTLE_MS: z.coerce.number().int().min(0).default(SIGNUP_THROTTLE_MS),
    SIGN_IN_ADDRESS_LIMIT: z.coerce.number().int().min(1).default(SIGN_IN_ATTEMPTS_PER_ADDRESS),
    SIGN_IN_ACCOUNT_LIMIT: z.coerce.number().int().min(1).default(SIGN_IN_ATTEMPTS_PER_ACCOUNT),
    EMAIL_CODE_EXPIRES_S: z.coerce
      .number()
      .int()
      .min(60, "must be at least 60 (seconds)")
      .max(3600, "must be at most 3600 (an hour)")
      .default(600),
    EMAIL_CODE_RESEND_S: z.coerce.number().int().min(0).max(3600, "must be at most 3600 (an hour)").default(60),
    OUTBOX_POLL_MS: z.coerce.number().int().min(10).default(1_000),
    OUTBOX_RETRY_BASE_MS: z.coerce.number().int().min(1).default(5_000),
    LISTEN_HEARTBEAT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
    STORAGE: z.enum(["local", "s3"]).optional(),
    S3_BUCKET: z.string().trim().min(3).max(63).optional(),
    S3_ENDPOINT: httpUrl.optional(),
    S3_REGION: z.string().trim().min(1).default("us-east-1"),
    S3_ACCESS_KEY_ID: z.string().trim().optional(),
    S3_SECRET_ACCESS_KEY: z.string().trim().optional(),
    S3_FORCE_PATH_STYLE: booleanFlag.default(false),
    S3_PREFIX: z
      .string()
      .trim()
      .regex(
        /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/?$/,
        "must be a folder-like prefix such as hopewell/ (letters, digits, . _ - and /)",
      )
      .optional(),
    BACKUP_DIR: z.string().trim().min(1).optional(),
    BACKUP_EVERY: z
      .string()
      .trim()
      .regex(/^[1-9]\d*(s|m|h|d)$/, "must be a duration such as 24h, 6h, 30m or 1d")
      .default("24h"),
    BACKUP_KEEP: z.coerce.number().int().min(1, "must be at least 1").default(7),
    REQUIRE_MANAGER_2FA: booleanFlag.default(true),
    REQUIRE_CAST_2FA: booleanFlag.default(false),
    LETTERS_NEED_RELEASE: booleanFlag.default(true),
    CAPTCHA_TEST_WORK: z.coerce.number().int().min(1).max(1_000).optional(),
  })
  .refine((env) => env.CAPTCHA_PROVIDER === "altcha" || (env.CAPTCHA_SITE_KEY && env.CAPTCHA_SECRET_KEY), {
    path: ["CAPTCHA_PROVIDER"],
    message: "turnstile and hcaptcha need CAPTCHA_SITE_KEY and CAPTCHA_SECRET_KEY",
  })
  .refine((env) => env.STORAGE !== "s3" || env.S3_BUCKET, {
    path: ["S3_BUCKET"],
    message: "is needed when STORAGE=s3",
  })
  .refine((env) => !env.S3_ACCESS_KEY_ID === !env.S3_SECRET_ACCESS_KEY, {
    path: ["S3_SECRET_ACCESS_KEY"],
    message:
      "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are given together (or neither, to use the machine's own credentials)",
  })
  .refine((env) => env.DISCORD_CLIENT_ID || !env.DISCORD_CLIENT_SECRET, {
    path: ["DISCORD_CLIENT_ID"],
    message: "is needed with DISCORD_CLIENT_SECRET: sign-in with Discord takes both (or neither, to leave it off)",
  })
  .refine((env) => env.DISCORD_CLIENT_SECRET || !env.DISCORD_CLIENT_ID, {
    path: ["DISCORD_CLIENT_SECRET"],
    message: "is needed with DISCORD_CLIENT_ID: sign-in with Discord takes both (or neither, to leave it off)",
  })
  .refine((env) => !env.STRIPE_SECRET_KEY || env.STRIPE_WEBHOOK_SECRET, {
    path: ["STRIPE_WEBHOOK_SECRET"],
    message:
      "is needed with STRIPE_SECRET_KEY: the signing secret (whsec_...) of the webhook endpoint for https://<your site>/webhooks/stripe, as tickets are sold only when the site also hears Stripe's confirmations (or set neither, to keep the events' payment links)",
  })
  .refine((env) => env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET, {
    path: ["STRIPE_SECRET_KEY"],
    message:
      "is needed with STRIPE_WEBHOOK_SECRET: the account's secret or restricted key (sk_test_..., sk_live_..., rk_...) (or set neither, to keep the events' payment links)",
  })
  .refine((env) => env.SMS_WEBHOOK_URL || !env.SMS_WEBHOOK_TOKEN, {
    path: ["SMS_WEBHOOK_URL"],
    message: "is needed with SMS_WEBHOOK_TOKEN: text messages go to the gateway at that address",
  })
  .refine((env) => env.CAPTCHA_TEST_WORK === undefined || env.NODE_ENV !== "production", {
    // The test suite's cheap challenges would let a bot through: a production server never starts with them.
    path: ["CAPTCHA_TEST_WORK"],
    message:
      "is for the test suite only (NODE_ENV=test): a production server does not start with it. Remove it from the settings",
  })
  .refine(
    (env) =>
      env.DISCORD_CLIENT_ID || !(env.DISCORD_AUTHORIZATION_URL || env.DISCORD_TOKEN_URL || env.DISCORD_USERINFO_URL),
    {
      path: ["DISCORD_CLIENT_ID"],
      message:
        "is needed when DISCORD_AUTHORIZATION_URL, DISCORD_TOKEN_URL or DISCORD_USERINFO_URL is set (with DISCORD_CLIENT_SECRET)",
    },
  );

/** Every variable the site reads, for documentation checks. */
export const CONFIG_VARIABLES = Object.keys(EnvSchema.shape) as (keyof typeof EnvSchema.shape)[];

/** Settings only the test suite gives (a production start refuses them): not for operators' documentation. */
export const TEST_SUITE_VARIABLES: readonly string[] = ["CAPTCHA_TEST_WORK"];

export type Config = ReturnType<typeof toConfig>;

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Uploaded files go to S3 when asked (STORAGE=s3) or when a bucket is named; else under DATA_DIR. */
function storageConfig(env: z.infer<typeof EnvSchema>) {
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
function discordSignInConfig(env: z.infer<typeof EnvSchema>) {
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

function toConfig(env: z.infer<typeof EnvSchema>) {
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
