import type { ServerResponse } from "node:http";

/**
 * The site's default security headers. A response that sets its own
 * Content-Security-Policy (the framed rulebook, uploaded files) keeps it:
 * headers set here are merged under the response's own by writeHead.
 */
export function contentSecurityPolicy({
  nonce,
  frameSources,
  scriptSources = [],
  secure,
}: {
  nonce: string;
  frameSources: string[];
  scriptSources?: string[];
  secure: boolean;
}) {
  const extraScripts = scriptSources.map((origin) => ` ${origin}`).join("");
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${extraScripts}`,
    `style-src 'self' 'nonce-${nonce}'${extraScripts}`,
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${extraScripts}`,
    `frame-src ${frameSources.join(" ")}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
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
