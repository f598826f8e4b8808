/**
 * A same-site path to return to after signing in; anything else becomes `fallback`.
 * It goes into a Location header, which carries bytes, not text: letters beyond ASCII
 * (a page named in Japanese) and spaces are percent-encoded as UTF-8, as a browser writes
 * them in a request, so the redirect reaches the page the address names.
 */
export function safeRedirectTarget(value: unknown, fallback = "/"): string {
  if (typeof value !== "string") return fallback;
  // A control character cannot go into a Location header.
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  const hasControlCharacter = /[\u0000-\u001F\u007F]/.test(value);
  if (hasControlCharacter || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\"))
    return fallback;
  if (/^\/(auth|login|logout)(\/|\?|$)/.test(value)) return fallback;
  // Half of a UTF-16 pair names no character and has no UTF-8 bytes to encode.
  if (/\p{Surrogate}/u.test(value)) return fallback;
  // Escapes already there (%2F) stay as they are: only what a header cannot carry is encoded.
  return value.replace(/[^\u0021-\u007E]+/g, (run) => encodeURIComponent(run));
}
