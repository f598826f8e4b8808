import { and, eq, sql } from "drizzle-orm";
import { database } from "~/platform/db/client.server";
import { accounts, profiles } from "~/platform/db/schema";
import { hashPassword, isBcryptHash, verifyPassword } from "~/identity/passwords.server";

/**
 * After a successful sign-in with a password imported from the old site (a bcrypt hash),
 * stores the password as Argon2id instead. The old hash is checked once more here, and
 * replaced only if it is still the one stored, so a password changed in the meantime is
 * never overwritten. Returns true when the hash was replaced.
 */
export async function upgradeImportedPassword(email: string, password: string): Promise<boolean> {
  const db = await database();
  const [account] = await db
    .select({ id: accounts.id, password: accounts.password })
    .from(accounts)
    .innerJoin(profiles, eq(profiles.id, accounts.userId))
    .where(and(eq(sql`lower(${profiles.email})`, email.toLowerCase()), eq(accounts.providerId, "credential")));
  if (!account?.password || !isBcryptHash(account.password)) return false;
  if (!(await verifyPassword({ hash: account.password, password }))) return false;
  const upgraded = await hashPassword(password);
  const replaced = await db
    .update(accounts)
    .set({ password: upgraded, updatedAt: sql`now()` })
    .where(and(eq(accounts.id, account.id), eq(accounts.password, account.password)))
    .returning({ id: accounts.id });
  return replaced.length > 0;
}
