import { beforeEach, describe, expect, it } from "vitest";
import { rateLimits } from "~/platform/db/schema";
import { withAppServer } from "../helpers/app-server";
import { solvedCaptcha } from "../helpers/captcha";
import { withTestDatabase } from "../helpers/db";
import { formBrowser } from "../helpers/form-browser";
import { signedInMember } from "../helpers/members";
import { totpNow } from "../helpers/two-factor";

/**
 * A page to return to after signing in whose address has letters beyond Latin-1 (a link
 * shared by a member writing in Japanese, or a crafted one): every place that sends the
 * browser there answers with a redirect it can follow, not a server error.
 */
const db = withTestDatabase();
const app = withAppServer();
const { get, post } = formBrowser(app);

const TARGET = "/日本";
/** The same address as a browser writes it in a request. */
const ENCODED = "/%E6%97%A5%E6%9C%AC";

// Every sign-in here comes from 127.0.0.1: each test starts with fresh per-address counters.
beforeEach(async () => {
  await db().delete(rateLimits);
});

describe("a redirectTo with characters beyond Latin-1", () => {
  it("signing in with a password goes there, percent-encoded", async () => {
    const member = await signedInMember("player", undefined, { secondFactor: false });
    const answer = await post("/auth", {
      intent: "signin",
      email: member.email,
      password: member.password,
      altcha: await solvedCaptcha(),
      redirectTo: TARGET,
    });
    expect(answer.status, answer.html.slice(0, 300)).toBe(302);
    expect(answer.location).toBe(ENCODED);
  });

  it("the second step keeps it and goes there once the code is right", async () => {
    const member = await signedInMember("player", undefined, { secondFactor: true });
    const first = await post("/auth", {
      intent: "signin",
      email: member.email,
      password: member.password,
      altcha: await solvedCaptcha(),
      redirectTo: TARGET,
    });
    expect(first.status, first.html.slice(0, 300)).toBe(302);
    expect(new URL(first.location, app().url).pathname).toBe("/auth/two-factor");

    const page = await get(first.location, first.jar);
    expect(page.status, page.html.slice(0, 300)).toBe(200);

    const second = await post(
      "/auth/two-factor",
      { method: "totp", code: totpNow(member.totpUri!), redirectTo: TARGET },
      first.jar,
    );
    expect(second.status, second.html.slice(0, 300)).toBe(302);
    expect(second.location).toBe(ENCODED);
  });

  it("the second step's page sends a member already past it there", async () => {
    const member = await signedInMember("player", undefined, { secondFactor: true });
    const answer = await get(`/auth/two-factor?redirectTo=${encodeURIComponent(TARGET)}`, member.cookie);
    expect(answer.status, answer.html.slice(0, 300)).toBe(302);
    expect(answer.location).toBe(ENCODED);
  });

  it("the email-code page sends a signed-in member there", async () => {
    const member = await signedInMember("player", undefined, { secondFactor: false });
    const answer = await get(`/auth/email-code?redirectTo=${encodeURIComponent(TARGET)}`, member.cookie);
    expect(answer.status, answer.html.slice(0, 300)).toBe(302);
    expect(answer.location).toBe(ENCODED);
  });

  it("a redirect the browser follows lands on the page the address names", async () => {
    const member = await signedInMember("player", undefined, { secondFactor: false });
    const answer = await post("/auth", {
      intent: "signin",
      email: member.email,
      password: member.password,
      altcha: await solvedCaptcha(),
      redirectTo: `${TARGET}?q=éa b#top`,
    });
    expect(answer.status, answer.html.slice(0, 300)).toBe(302);
    const landed = new URL(answer.location, app().url);
    expect(decodeURIComponent(landed.pathname)).toBe(TARGET);
    expect(landed.searchParams.get("q")).toBe("éa b");
    // A page that does not exist is the site's own 404, for a member signed in.
    const followed = await get(answer.location, answer.jar);
    expect(followed.status).toBe(404);
  });
});
