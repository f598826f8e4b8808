/** A same-site path to return to after signing in; anything else becomes "/". */
export function safeRedirectTarget(value: unknown, fallback = "/"): string {
  // A control character cannot go into a Location header.
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (typeof value !== "string" || /[\u0000-\u001F\u007F]/.test(value) || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (/^\/(auth|login|logout)(\/|\?|$)/.test(value)) return fallback;
  return value;
}
