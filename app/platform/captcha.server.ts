import { lt, sql } from "drizzle-orm";
import { createChallenge, randomInt, verifySolution, type Challenge, type Payload } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { config } from "./config.server";
import { database } from "./db/client.server";
import { logger } from "./logger.server";
import { usedCaptchas } from "./db/schema";
import { siteSecret } from "./secrets.server";

/**
 * ALTCHA: a self-hosted proof-of-work CAPTCHA. The browser spends about a second
 * of work; no third party sees our members. Each solved challenge is accepted
 * once: its nonce is recorded until the challenge expires.
 */
const ALGORITHM = "PBKDF2/SHA-256";
const COST = 500;
const CHALLENGE_TTL_MS = 20 * 60_000;
/** How many key derivations a browser may have to try before it finds the answer. */
const WORK = { min: 2_000, max: 6_000 };

async function secrets() {
  const db = await database();
  return {
    hmacSignatureSecret: await siteSecret(db, "captcha_signature_secret"),
    hmacKeySignatureSecret: await siteSecret(db, "captcha_key_secret"),
  };
}

/**
 * The work one challenge asks: about a second of a phone's time. The test suite alone lowers it
 * (CAPTCHA_TEST_WORK, refused in production): its browsers and requests solve hundreds of
 * challenges, and what is tested is that a solution is checked, not how long finding it takes.
 */
function challengeWork(): number {
  const testWork = config().captcha.testWork;
  return testWork === undefined ? randomInt(WORK.max, WORK.min) : randomInt(testWork);
}

export async function newChallenge(): Promise<Challenge> {
  return createChallenge({
    algorithm: ALGORITHM,
    cost: COST,
    counter: challengeWork(),
    deriveKey,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
    ...(await secrets()),
  });
}

function parsePayload(value: string): Payload | null {
  try {
    const payload = JSON.parse(Buffer.from(value, "base64").toString("utf8")) as Payload;
    return payload?.challenge?.parameters && payload.solution ? payload : null;
  } catch {
    return null;
  }
}

/** True when `value` (the widget's form field) is a fresh, correctly solved challenge of ours. */
async function verifyAltcha(value: unknown): Promise<boolean> {
  if (typeof value !== "string" || value.length === 0 || value.length > 10_000) return false;
  const payload = parsePayload(value);
  if (!payload) return false;
  const result = await verifySolution({
    challenge: payload.challenge,
    solution: payload.solution,
    deriveKey,
    ...(await secrets()),
  });
  if (!result.verified) return false;
  const db = await database();
  const expiresAt = new Date(
    (payload.challenge.parameters.expiresAt ?? Date.now() / 1000 + CHALLENGE_TTL_MS / 1000) * 1000,
  );
  const inserted = await db
    .insert(usedCaptchas)
    .values({ id: payload.challenge.parameters.nonce, expiresAt })
    .onConflictDoNothing()
    .returning({ id: usedCaptchas.id });
  return inserted.length === 1;
}

export async function pruneUsedCaptchas(): Promise<void> {
  const db = await database();
  await db.delete(usedCaptchas).where(lt(usedCaptchas.expiresAt, sql`now()`));
}

/** The hosted CAPTCHAs that can be configured instead of ALTCHA, and how each is checked. */
export const HOSTED_CAPTCHAS = {
  turnstile: {
    field: "cf-turnstile-response",
    script: "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit",
    origins: ["https://challenges.cloudflare.com"],
    verifyUrl: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
  },
  hcaptcha: {
    field: "h-captcha-response",
    script: "https://js.hcaptcha.com/1/api.js?render=explicit",
    origins: ["https://hcaptcha.com", "https://*.hcaptcha.com"],
    verifyUrl: "https://api.hcaptcha.com/siteverify",
  },
} as const;

/** What the page needs to show the configured CAPTCHA; nothing secret. */
export function captchaWidgetSettings() {
  const { provider, siteKey } = config().captcha;
  if (provider === "altcha") return { provider } as const;
  return {
    provider,
    siteKey: siteKey!,
    field: HOSTED_CAPTCHAS[provider].field,
    script: HOSTED_CAPTCHAS[provider].script,
  };
}

async function verifyHosted(
  provider: keyof typeof HOSTED_CAPTCHAS,
  token: unknown,
  clientAddress: string,
): Promise<boolean> {
  if (typeof token !== "string" || token.length === 0 || token.length > 4096) return false;
  const { secretKey, siteKey, verifyUrl } = config().captcha;
  const body = new URLSearchParams({ secret: secretKey!, response: token, remoteip: clientAddress });
  if (provider === "hcaptcha") body.set("sitekey", siteKey!);
  try {
    const response = await fetch(verifyUrl ?? HOSTED_CAPTCHAS[provider].verifyUrl, {
      method: "POST",
      body,
      signal: AbortSignal.timeout(5_000),
    });
    const result = (await response.json()) as { success?: boolean };
    return response.ok && result.success === true;
  } catch (error) {
    // An unreachable verifier must not let everyone in.
    logger.error({ err: error, provider }, "CAPTCHA verification failed");
    return false;
  }
}

/** Checks the CAPTCHA answer in a submitted form, whichever CAPTCHA is configured. */
export async function verifyCaptcha(
  fields: Record<string, string | undefined>,
  clientAddress: string,
): Promise<boolean> {
  const provider = config().captcha.provider;
  if (provider === "altcha") return verifyAltcha(fields.altcha);
  return verifyHosted(provider, fields[HOSTED_CAPTCHAS[provider].field], clientAddress);
}
