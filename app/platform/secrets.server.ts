import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { config } from "./config.server";
import type { Database } from "./db/client.server";
import { settings } from "./db/schema";

/**
 * A secret the site needs (e.g. to sign session cookies): AUTH_SECRET when set,
 * else one made on first start and kept in the database, so every instance on
 * the same database shares it and a restart does not sign everyone out.
 */
export async function siteSecret(db: Database, key: string): Promise<string> {
  const fromEnv = key === "auth_secret" ? config().authSecret : undefined;
  if (fromEnv) return fromEnv;
  await db
    .insert(settings)
    .values({ key, value: crypto.randomBytes(32).toString("base64url") })
    .onConflictDoNothing();
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row!.value;
}
