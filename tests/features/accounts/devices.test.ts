import type http from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config, type Config } from "~/platform/config.server";
import { sessions } from "~/platform/db/schema";
import { createAppServer } from "../../../http/app";
import { solvedCaptcha } from "../../helpers/captcha";
import { withTestDatabase } from "../../helpers/db";
import { signedInMember } from "../../helpers/members";

/**
 * /profile/devices with two cookie jars, two devices of one member. A direct server (the
 * client's own address counts) and one behind a proxy (TRUST_PROXY: the proxy's last
 * X-Forwarded-For entry counts).
 */
const db = withTestDatabase();
const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

async function listen(cfg: Config): Promise<{ url: string; server: http.Server }> {
  const server = createAppServer(cfg, { assetsDir: "public" });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

let direct: { url: string; server: http.Server };
let proxied: { url: string; server: http.Server };
beforeAll(async () => {
  direct = await listen({ ...config(), trustProxy: false });
  proxied = await listen({ ...config(), trustProxy: true });
});
afterAll(async () => {
  for (const { server } of [direct, proxied]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Signs in through the sign-in form, as a browser would: returns that device's Cookie header. */
async function signInDevice(
  baseUrl: string,
  member: { email: string; password: string },
  headers: Record<string, string>,
): Promise<string> {
  const response = await fetch(`${baseUrl}/auth`, {
    method: "POST",
    headers: { Origin: baseUrl, "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({
      intent: "signin",
      email: member.email,
      password: member.password,
      altcha: await solvedCaptcha(),
      redirectTo: "/profile",
    }),
    redirect: "manual",
  });
  expect(response.status).toBe(302);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

const page = (cookie: string, path = "/profile/devices") =>
  fetch(direct.url + path, { headers: { Cookie: cookie }, redirect: "manual" });
const post = (cookie: string, fields: Record<string, string>) =>
  fetch(`${direct.url}/profile/devices`, {
    method: "POST",
    headers: { Origin: direct.url, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
const signedOut = async (cookie: string) => {
  const response = await page(cookie, "/profile");
  return response.status === 302 && (response.headers.get("Location") ?? "").startsWith("/auth");
};
const sessionsOf = (userId: string) => db().select().from(sessions).where(eq(sessions.userId, userId));
/** The session ids the page names in its forms, in page order. */
const listedIds = (html: string) => [...html.matchAll(/name="id" value="([^"]+)"/g)].map((m) => m[1]);

describe("signed-in devices", () => {
  it("lists both devices with their browser, address and last seen, marks this one, and shows no token", async () => {
    const member = await signedInMember("player");
    await db().delete(sessions).where(eq(sessions.userId, member.id));
    // A client-sent X-Forwarded-For (or the site's own header) is not believed without TRUST_PROXY.
    const laptop = await signInDevice(direct.url, member, {
      "User-Agent": FIREFOX,
      "X-Forwarded-For": "203.0.113.7",
      "X-Hopewell-Client-Address": "203.0.113.8",
    });
    // Behind the proxy, its last entry is the client; the first was sent by the client itself.
    const phone = await signInDevice(proxied.url, member, {
      "User-Agent": IPHONE,
      "X-Forwarded-For": "192.0.2.66, 198.51.100.23",
    });

    const rows = await sessionsOf(member.id);
    expect(rows.map((r) => r.ipAddress).sort()).toEqual(["127.0.0.1", "198.51.100.23"]);
    expect(rows.map((r) => r.userAgent).sort()).toEqual([FIREFOX, IPHONE].sort());

    const response = await page(laptop);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Signed-in devices");
    expect(html).toContain("Firefox 133 on Windows 10");
    expect(html).toContain("Safari 17 on iOS 17.5");
    expect(html).toContain("127.0.0.1");
    expect(html).toContain("198.51.100.23");
    expect(html).not.toContain("203.0.113.");
    expect(html.match(/This device/g)).toHaveLength(1);
    // This device is listed first; only the other one has a per-device sign-out, named by its id.
    expect(html.indexOf("Firefox 133")).toBeLessThan(html.indexOf("This device"));
    expect(html.indexOf("This device")).toBeLessThan(html.indexOf("Safari 17"));
    const phoneRow = rows.find((r) => r.userAgent === IPHONE)!;
    expect(listedIds(html)).toEqual([phoneRow.id]);
    for (const row of rows) expect(html).not.toContain(row.token);
    // The data request the browser makes on navigation carries no token either.
    const data = await (await page(laptop, "/profile/devices.data")).text();
    for (const row of rows) expect(data).not.toContain(row.token);

    // The phone sees itself marked.
    const fromPhone = await (await page(phone)).text();
    expect(fromPhone.indexOf("Safari 17")).toBeLessThan(fromPhone.indexOf("This device"));
    expect(fromPhone.indexOf("This device")).toBeLessThan(fromPhone.indexOf("Firefox 133"));
  });

  it("signs out all other devices: the other one is signed out on its very next request", async () => {
    const member = await signedInMember("player");
    const laptop = await signInDevice(direct.url, member, { "User-Agent": FIREFOX });
    const phone = await signInDevice(direct.url, member, { "User-Agent": IPHONE });
    // The phone's session is read (and kept in memory) before it is ended.
    expect(await signedOut(phone)).toBe(false);
    expect(await signedOut(phone)).toBe(false);

    const response = await post(laptop, { intent: "others" });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("You are signed out on every other device.");
    expect(await signedOut(phone)).toBe(true);
    expect(await signedOut(member.cookie)).toBe(true);
    expect(await signedOut(laptop)).toBe(false);
    expect((await sessionsOf(member.id)).map((r) => r.userAgent)).toEqual([FIREFOX]);
  });

  it("signs out one listed device, and refuses another member's session or this one", async () => {
    const member = await signedInMember("player");
    const other = await signedInMember("player");
    const laptop = await signInDevice(direct.url, member, { "User-Agent": FIREFOX });
    const phone = await signInDevice(direct.url, member, { "User-Agent": IPHONE });
    expect(await signedOut(phone)).toBe(false);
    const [otherSession] = await sessionsOf(other.id);
    const laptopRow = (await sessionsOf(member.id)).find((r) => r.userAgent === FIREFOX)!;
    const phoneRow = (await sessionsOf(member.id)).find((r) => r.userAgent === IPHONE)!;

    for (const id of [otherSession!.id, laptopRow.id, "no-such-session", "<script>"]) {
      const refused = await post(laptop, { intent: "one", id });
      expect(refused.status).toBe(404);
      expect(await refused.text()).toContain("That device is no longer signed in.");
    }
    expect(await signedOut(other.cookie)).toBe(false);
    expect(await signedOut(laptop)).toBe(false);

    const done = await post(laptop, { intent: "one", id: phoneRow.id });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("That device is signed out.");
    expect(await signedOut(phone)).toBe(true);
    expect(await signedOut(member.cookie)).toBe(false);
    expect(await signedOut(laptop)).toBe(false);
    expect((await sessionsOf(member.id)).map((r) => r.id)).not.toContain(phoneRow.id);
  });

  it("signs out this device only, or everywhere, and goes to sign-in", async () => {
    const member = await signedInMember("player");
    const laptop = await signInDevice(direct.url, member, { "User-Agent": FIREFOX });
    const phone = await signInDevice(direct.url, member, { "User-Agent": IPHONE });
    expect(await signedOut(laptop)).toBe(false);

    const here = await post(laptop, { intent: "this" });
    expect(here.status).toBe(302);
    expect(here.headers.get("Location")).toBe("/auth");
    expect(here.headers.getSetCookie().join()).toMatch(/Max-Age=0/i);
    expect(await signedOut(laptop)).toBe(true);
    expect(await signedOut(phone)).toBe(false);
    expect(await signedOut(member.cookie)).toBe(false);

    const everywhere = await post(phone, { intent: "everywhere" });
    expect(everywhere.status).toBe(302);
    expect(everywhere.headers.get("Location")).toBe("/auth");
    expect(await signedOut(phone)).toBe(true);
    expect(await signedOut(member.cookie)).toBe(true);
    expect(await sessionsOf(member.id)).toEqual([]);
  });

  it("asks a session signed in more than a day ago to sign in again before listing, but still signs out elsewhere", async () => {
    const member = await signedInMember("player");
    const phone = await signInDevice(direct.url, member, { "User-Agent": IPHONE });
    await db()
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 2 * 86_400_000) })
      .where(eq(sessions.userId, member.id));
    const html = await (await page(member.cookie)).text();
    expect(html).toContain("the list of devices is shown only within a day of signing in");
    expect(listedIds(html)).toEqual([]);
    expect((await post(member.cookie, { intent: "others" })).status).toBe(200);
    expect(await signedOut(phone)).toBe(true);
    expect(await signedOut(member.cookie)).toBe(false);
  });
});
