import { tzlib_get_timezones } from "timezones-ical-library";
import { z } from "zod";
import { SIGN_IN_ATTEMPTS_PER_ACCOUNT, SIGN_IN_ATTEMPTS_PER_ADDRESS, SIGNUP_THROTTLE_MS } from "./account-limits";
import { DEFAULT_CLUB_TIME_ZONE } from "../game/setting";

/**
 * Every variable the site reads from the environment and the rule each must meet, parsed once at
 * start-up (config.server.ts makes the settings from them). `.env.example` documents each one;
 * keep the two in step.
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

export const EnvSchema = z
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
    // The managers' messages to members go out at most this many a minute: a mail provider's
    // sending limit (many allow a few a second; some free plans far fewer) is kept by the site.
    MESSAGES_PER_MINUTE: z.coerce
      .number()
      .int()
      .min(1, "must be at least 1 (email a minute)")
      .max(6000, "must be at most 6000 (100 emails a second)")
      .default(120),
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

/** The variables as read and checked, before the settings are made from them. */
export type Environment = z.infer<typeof EnvSchema>;
