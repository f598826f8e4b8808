/** Row ids are UUIDs; anything else from a form or an address is refused before it reaches a query. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/**
 * Member ids come from the auth library (text, not UUIDs). A posted one is checked only
 * for what the database cannot take, so a NUL byte is refused before it reaches a query.
 */
export function isMemberId(value: unknown): value is string {
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  return typeof value === "string" && value.length > 0 && value.length <= 200 && !/[\u0000-\u001F\u007F]/.test(value);
}
