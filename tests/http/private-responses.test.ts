import { describe, expect, it } from "vitest";
import { withAppServer } from "../helpers/app-server";
import { solvedCaptcha } from "../helpers/captcha";
import { withTestDatabase } from "../helpers/db";
import { postForm } from "../helpers/forms";
import { signedInMember } from "../helpers/members";

withTestDatabase();
const app = withAppServer();

describe("responses for a signed-in member", () => {
  it("are never stored by a cache: pages, data requests, redirects, refusals and missing pages", async () => {
    const player = await signedInMember("player");
    const headers = { Cookie: player.cookie };
    const responses = {
      "the home page": await fetch(`${app().url}/`, { headers }),
      "the profile": await fetch(`${app().url}/profile`, { headers }),
      "a data request": await fetch(`${app().url}/profile.data`, { headers }),
      "a page for staff only": await fetch(`${app().url}/tools`, { headers, redirect: "manual" }),
      "a missing page": await fetch(`${app().url}/no-such-page`, { headers }),
      "a form's answer": await postForm(app().url, "/letters", { recipient: "Silas" }, player.cookie),
      "signing out": await postForm(app().url, "/logout", {}, player.cookie),
    };
    for (const [what, response] of Object.entries(responses)) {
      expect(response.headers.get("Cache-Control"), what).toBe("private, no-store");
    }
    expect(responses["a page for staff only"].status).toBe(302);
    expect(responses["a missing page"].status).toBe(404);
    expect(responses["signing out"].headers.get("Set-Cookie")).toBeTruthy();
  });

  it("are never stored when they set a cookie, even for a visitor who sent none", async () => {
    const member = await signedInMember("player");
    const response = await postForm(app().url, "/auth", {
      intent: "signin",
      email: member.email,
      password: member.password,
      altcha: await solvedCaptcha(),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Set-Cookie")).toContain("hopewell.session_token");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("leave signed-out pages and the site's files cacheable", async () => {
    const home = await fetch(`${app().url}/`);
    expect(home.headers.get("Cache-Control")).toContain("public");
    const events = await fetch(`${app().url}/events`, { redirect: "manual" });
    expect(events.headers.get("Cache-Control")).not.toBe("private, no-store");
  });
});
