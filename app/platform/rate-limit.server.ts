import { lt, sql } from "drizzle-orm";
import { SIGN_IN_ATTEMPTS_PER_ACCOUNT, SIGN_IN_ATTEMPTS_PER_ADDRESS, SIGN_IN_WINDOW_MS } from "./account-limits";
import { config } from "./config.server";
import { database, rawRows } from "./db/client.server";
import { rateLimits } from "./db/schema";

export type Limit = { max: number; windowMs: number };

/** The limits of the site's sensitive actions. Keys combine the action with an address or account. */
export const LIMITS = {
  // SIGN_IN_ADDRESS_LIMIT may change the count (see signInPerAddress).
  signInPerAddress: { max: SIGN_IN_ATTEMPTS_PER_ADDRESS, windowMs: SIGN_IN_WINDOW_MS },
  // SIGN_IN_ACCOUNT_LIMIT may change the count (see signInPerAccount).
  signInPerAccount: { max: SIGN_IN_ATTEMPTS_PER_ACCOUNT, windowMs: SIGN_IN_WINDOW_MS },
  resetPerAddress: { max: 10, windowMs: 60 * 60_000 },
  resetPerAccount: { max: 3, windowMs: 60 * 60_000 },
  captchaChallengePerAddress: { max: 100, windowMs: 10 * 60_000 },
} satisfies Record<string, Limit>;

/** Sign-in attempts per client address, by any way in: as many as SIGN_IN_ADDRESS_LIMIT says (30 by default). */
export function signInPerAddress(): Limit {
  return { ...LIMITS.signInPerAddress, max: config().signInAddressLimit };
}

/** Sign-in attempts per account (password checks and codes): as many as SIGN_IN_ACCOUNT_LIMIT says (10 by default). */
export function signInPerAccount(): Limit {
  return { ...LIMITS.signInPerAccount, max: config().signInAccountLimit };
}

/**
 * Counts one attempt against `key` and says whether it is within `limit`.
 * One statement, so concurrent attempts (and several app instances) count exactly;
 * a fixed window keeps the arithmetic in the database.
 */
export async function hit(key: string, limit: Limit): Promise<{ allowed: boolean; retryAfterMs: number }> {
  const db = await database();
  const windowInterval = `${limit.windowMs} milliseconds`;
  const [row] = await rawRows<{ count: number; retry_after_ms: number }>(
    db,
    sql`insert into ${rateLimits} (key, count, reset_at)
        values (${key}, 1, now() + ${windowInterval}::interval)
        on conflict (key) do update set
          count = case when ${rateLimits.resetAt} <= now() then 1 else ${rateLimits.count} + 1 end,
          reset_at = case when ${rateLimits.resetAt} <= now() then now() + ${windowInterval}::interval else ${rateLimits.resetAt} end
        returning count, greatest(0, extract(epoch from (reset_at - now())) * 1000)::int as retry_after_ms`,
  );
  return { allowed: row!.count <= limit.max, retryAfterMs: row!.retry_after_ms };
}

/**
 * Gives back the attempt `hit` counted against `key`, once it succeeded: the sign-in limits
 * count wrong guesses, and a member who signs in (or gives a right code) many times a day must
 * not lock themselves out. Counting first and giving back after keeps concurrent guesses
 * counted exactly; only a window that has not ended since is touched.
 */
export async function forgiveAttempt(key: string): Promise<void> {
  const db = await database();
  await db.execute(
    sql`update ${rateLimits} set count = greatest(${rateLimits.count} - 1, 0) where key = ${key} and ${rateLimits.resetAt} > now()`,
  );
}

/** Removes expired counters; run now and then so the table stays small. */
export async function pruneRateLimits(): Promise<void> {
  const db = await database();
  await db.delete(rateLimits).where(lt(rateLimits.resetAt, sql`now()`));
}
