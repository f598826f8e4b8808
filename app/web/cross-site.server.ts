const MUTATIONS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * A form post from another site: a request that changes something, whose `Origin` is not the
 * request's own origin (an opaque "null" origin and an unreadable one included). React Router
 * turns these away itself before any middleware or action runs, and hands the refusal to
 * handleError as a plain Error; this names the same requests from the request alone, so the
 * refusal is told apart without reading the text of React Router's message.
 */
export function isCrossSitePost(request: Request): boolean {
  if (!MUTATIONS.has(request.method)) return false;
  const origin = request.headers.get("Origin");
  if (origin === null) return false;
  if (origin === "null") return true;
  try {
    return new URL(origin).origin !== new URL(request.url).origin;
  } catch {
    return true;
  }
}
