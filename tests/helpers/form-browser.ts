import { cookieHeader } from "./two-factor";

/**
 * A browser without JavaScript, against the app's HTTP server: pages fetched and forms posted
 * as plain requests, redirects not followed, and a cookie jar carried from one answer to the next.
 */

/** How React writes text into the page. */
export const inPage = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");

/** One answer: its status, where it redirects, its page, and the jar after its cookies. */
export type Answer = { status: number; location: string; html: string; jar: string; response: Response };

async function answer(response: Response, jar: string): Promise<Answer> {
  return {
    status: response.status,
    location: response.headers.get("Location") ?? "",
    html: await response.text(),
    jar: cookieHeader(response.headers.getSetCookie(), jar),
    response,
  };
}

/** `get` and `post` against the server at `app().url` (read when called, once the server is up). */
export function formBrowser(app: () => { url: string }) {
  async function get(path: string, jar = ""): Promise<Answer> {
    return answer(await fetch(app().url + path, { headers: jar ? { Cookie: jar } : {}, redirect: "manual" }), jar);
  }
  async function post(path: string, fields: Record<string, string>, jar = ""): Promise<Answer> {
    const response = await fetch(app().url + path, {
      method: "POST",
      headers: {
        Origin: app().url,
        "Content-Type": "application/x-www-form-urlencoded",
        ...(jar ? { Cookie: jar } : {}),
      },
      body: new URLSearchParams(fields),
      redirect: "manual",
    });
    return answer(response, jar);
  }
  return { get, post };
}
