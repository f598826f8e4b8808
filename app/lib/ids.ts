/** Row ids are UUIDs; anything else from a form or an address is refused before it reaches a query. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/**
 * Member ids are made by the auth library (letters and digits) and by imports and the demo data
 * (UUIDs); anything else names nobody, so a posted or addressed one of another shape (a NUL byte, a
 * slash, an overlong string) is refused before it reaches a query.
 */
const MEMBER_ID = /^[A-Za-z0-9_-]{1,100}$/;

export function isMemberId(value: unknown): value is string {
  return typeof value === "string" && MEMBER_ID.test(value);
}
