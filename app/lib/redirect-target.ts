/** A same-site path to return to after signing in; anything else becomes "/". */
export function safeRedirectTarget(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (/^\/(auth|login|logout)(\/|\?|$)/.test(value)) return fallback;
  return value;
}
