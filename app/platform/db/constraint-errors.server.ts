/**
 * Whether a database error (or one it wraps, as drizzle wraps the driver's) is PostgreSQL's
 * unique_violation (23505): an insert or update that a unique index refused, such as an email
 * address another member took between the check and the write.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}
