import type { ServerResponse } from "node:http";

/**
 * What allows a page's inline scripts and styles: a nonce per response, or, for a page
 * shared by many visitors (which carries no scripts), the hashes of its inline styles.
 */
export type InlineSources = { nonce: string } | { styleHashes: string[] };

/**
 * The site's default security headers. A response that sets its own
 * Content-Security-Policy (the framed rulebook, uploaded files) keeps it:
 * headers set here are merged under the response's own by writeHead.
 */
export function contentSecurityPolicy({
  inline,
  frameSources,
  scriptSources = [],
  formTargets = [],
  secure,
}: {
  inline: InlineSources;
  frameSources: string[];
  scriptSources?: string[];
  /** Origins a form may be sent (or redirected) to besides ours: sign-in with Discord's. */
  formTargets?: string[];
  secure: boolean;
}) {
  const extraScripts = scriptSources.map((origin) => ` ${origin}`).join("");
  const inlineScripts = "nonce" in inline ? ` 'nonce-${inline.nonce}'` : "";
  const inlineStyles =
    "nonce" in inline ? ` 'nonce-${inline.nonce}'` : inline.styleHashes.map((hash) => ` ${hash}`).join("");
  return [
    "default-src 'self'",
    `script-src 'self'${inlineScripts}${extraScripts}`,
    `style-src 'self'${inlineStyles}${extraScripts}`,
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${extraScripts}`,
    `frame-src ${frameSources.join(" ")}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self'${formTargets.map((origin) => ` ${origin}`).join("")}`,
    "frame-ancestors 'none'",
    ...(secure ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

export function setBaseSecurityHeaders(res: ServerResponse, secure: boolean) {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
  if (secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
}
