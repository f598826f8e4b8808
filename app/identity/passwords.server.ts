import { hash, verify } from "@node-rs/argon2";

/**
 * Argon2id with OWASP's recommended minimum (19 MiB of memory, 2 passes, 1 lane).
 * The auth library's default (scrypt N=2^14, r=16) is below OWASP's scrypt guidance.
 */
const OPTIONS = {
  algorithm: 2 /* Argon2id (a const enum the compiler cannot import) */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** A bcrypt hash as the old site's auth service stored it ($2a$ or $2b$; $2y$ is the same algorithm). */
const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/** True for a password hash imported from the old site, replaced by Argon2id at the member's next sign-in. */
export function isBcryptHash(stored: string): boolean {
  return BCRYPT.test(stored);
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }): Promise<boolean> {
  try {
    if (isBcryptHash(stored)) {
      // Only members imported from the old site have such hashes, once each: loaded then.
      const { compare } = await import("bcryptjs");
      return await compare(password, stored);
    }
    return await verify(stored, password);
  } catch {
    return false;
  }
}
