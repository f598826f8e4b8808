import { hash, verify } from "@node-rs/argon2";

/**
 * Argon2id with OWASP's recommended minimum (19 MiB of memory, 2 passes, 1 lane).
 * The auth library's default (scrypt N=2^14, r=16) is below OWASP's scrypt guidance.
 */
const OPTIONS = { algorithm: 2 /* Argon2id (a const enum the compiler cannot import) */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
