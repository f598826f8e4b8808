import path from "node:path";
import { z } from "zod";
import { SIGNUP_THROTTLE_MS } from "../game/rules";

/**
 * Every setting the site reads from the environment, parsed once at start-up.
 * `.env.example` documents each one; keep the two in step.
 */
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" });

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((value) => value === "true" || value === "1" || value === "yes");

const EnvSchema = z.object({
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
  SIGNUP_THROTTLE_MS: z.coerce.number().int().min(0).default(SIGNUP_THROTTLE_MS),
  OUTBOX_POLL_MS: z.coerce.number().int().min(10).default(1_000),
  OUTBOX_RETRY_BASE_MS: z.coerce.number().int().min(1).default(5_000),
}).refine((env) => env.CAPTCHA_PROVIDER === "altcha" || (env.CAPTCHA_SITE_KEY && env.CAPTCHA_SECRET_KEY), {
  path: ["CAPTCHA_PROVIDER"],
  message: "turnstile and hcaptcha need CAPTCHA_SITE_KEY and CAPTCHA_SECRET_KEY",
});

/** Every variable the site reads, for documentation checks. */
export const CONFIG_VARIABLES = Object.keys(EnvSchema.shape) as (keyof typeof EnvSchema.shape)[];

export type Config = ReturnType<typeof toConfig>;

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
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
    authSecret: env.AUTH_SECRET,
    captcha: {
      provider: env.CAPTCHA_PROVIDER,
      siteKey: env.CAPTCHA_SITE_KEY,
      secretKey: env.CAPTCHA_SECRET_KEY,
      verifyUrl: env.CAPTCHA_VERIFY_URL,
    },
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    signupThrottleMs: env.SIGNUP_THROTTLE_MS,
    discord: { webhookUrl: env.DISCORD_WEBHOOK_URL, username: env.DISCORD_USERNAME, avatarUrl: env.DISCORD_AVATAR_URL },
    outbox: { pollMs: env.OUTBOX_POLL_MS, retryBaseMs: env.OUTBOX_RETRY_BASE_MS },
  };
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  // An empty variable means "not set": use the default.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ""));
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

/** Replaces settings for the rest of this process (tests lower throttles and point at local servers). */
export function overrideConfig(changes: Partial<Config>): void {
  current = { ...config(), ...changes };
}
