import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { carriesAuthCookie } from "~/identity/auth-cookie.server";

/** Every source file of the app and its server. */
function sources(): { file: string; text: string }[] {
  return ["app", "http"].flatMap((dir) =>
    fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      .filter((file) => /\.(ts|tsx|mjs)$/.test(file))
      .map((file) => ({ file: path.join(dir, file), text: fs.readFileSync(path.join(dir, file), "utf8") })),
  );
}

/**
 * What only the auth library's own code may know: its context and internal adapter, its
 * cookie names and signature, its storage keys, and its errors recognised by name. A copy
 * of any of these can break silently on a minor upgrade within the allowed 1.x range.
 */
const INTERNALS: [string, RegExp][] = [
  ["its context", /\$context/],
  ["its internal adapter", /internalAdapter/],
  ["its session cookie's name", /session_token|session_data|dont_remember/],
  ["its storage keys", /["'`]reset-password:/],
  ["its errors recognised by name", /name\s*===\s*["']APIError["']/],
  ["the cookie signature", /createHmac/],
];

/**
 * Files whose own HMAC signs something of the site's, not the library's cookie: each named with
 * what it signs. Any other file with an HMAC is taken for a copy of the cookie signature.
 */
const OWN_SIGNATURES: Record<string, string> = {
  [path.join("app", "features", "events", "calendar-feed.server.ts")]: "the key in a member's calendar-feed address",
  [path.join("app", "features", "accounts", "sign-up-mark.server.ts")]:
    "the mark a browser keeps of the account it made at sign-up",
  [path.join("app", "ops", "backup", "signature.server.ts")]:
    "a backup archive's manifest, with the key kept in DATA_DIR",
  [path.join("app", "features", "messages", "message-email.server.ts")]:
    "the token in an unsubscribe link from a managers' message",
};

describe("the auth library is used through its public API", () => {
  it("no file of the app or its server copies the library's internals", () => {
    const found = sources().flatMap(({ file, text }) =>
      INTERNALS.filter(
        ([what, pattern]) => pattern.test(text) && !(what === "the cookie signature" && file in OWN_SIGNATURES),
      ).map(([what]) => `${file}: ${what}`),
    );
    expect(found).toEqual([]);
  });

  it("an HMAC of the site's own signs nothing of the library's: no cookie is read where it is made", () => {
    const code = (file: string) =>
      fs
        .readFileSync(file, "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\/\/.*$/gm, "");
    for (const file of Object.keys(OWN_SIGNATURES)) expect(code(file), file).not.toMatch(/cookie/i);
  });

  it("tells a request carrying any of the library's cookies from one without, whatever the library names them", () => {
    expect(carriesAuthCookie(undefined)).toBe(false);
    expect(carriesAuthCookie("theme=dark; hopewellish=1")).toBe(false);
    expect(carriesAuthCookie("theme=dark; hopewell.session_token=abc.def")).toBe(true);
    expect(carriesAuthCookie("__Secure-hopewell.anything_new=x")).toBe(true);
    expect(carriesAuthCookie("hopewell-session=x")).toBe(true);
  });
});
