import { describe, expect, it } from "vitest";
import { withAppServer } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";
import { captureLogs } from "../helpers/logs";
import { signedInMember } from "../helpers/members";

/**
 * A request a client gets wrong (a 4xx) is the client's mistake, not the site's: it is logged once,
 * at info, in the access log, and never as an error with a stack. Anonymous posts to pages without
 * a form filled the error log with "request failed" lines.
 */
withTestDatabase();
const captured = captureLogs();
const app = withAppServer();

type LogLine = { level: number; msg: string; status?: number; route?: string; method?: string; err?: unknown };
const lines = () => captured.map((line) => JSON.parse(line) as LogLine);
const ERROR = 50;

describe("requests a client gets wrong", () => {
  it("are logged at info in the access log, never as errors", async () => {
    const { url } = app();
    const player = await signedInMember("player");
    const post = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${url}${path}`, {
        method: "POST",
        headers: { Origin: url, "Content-Type": "application/x-www-form-urlencoded", ...headers },
        body: "a=b",
        redirect: "manual",
      });
    const before = captured.length;

    const answers = [
      // A page without a form: 405 from the router, anonymous and signed in.
      await post("/rulebook"),
      await post("/locations", { Cookie: player.cookie }),
      // A page's data asked for with a method it does not answer, and an address that is no page.
      await post("/rulebook.data"),
      await post("/no-such-page"),
      await fetch(`${url}/no-such-page.data`),
      // A role the page refuses, and a body that is not a form.
      await post("/tools", { Cookie: player.cookie }),
      await post("/auth", { "Content-Type": "application/json" }),
    ];
    for (const answer of answers) await answer.arrayBuffer();
    expect(answers.map((answer) => answer.status)).toEqual([405, 405, 405, 404, 404, 403, 400]);
    await new Promise((resolve) => setTimeout(resolve, 200));

    const logged = lines().slice(before);
    expect(logged.filter((line) => line.level >= ERROR)).toEqual([]);
    expect(logged.filter((line) => line.err !== undefined)).toEqual([]);
    const requests = logged.filter((line) => line.msg === "request");
    expect(requests.map(({ method, status, level }) => ({ method, status, level }))).toEqual([
      { method: "POST", status: 405, level: 30 },
      { method: "POST", status: 405, level: 30 },
      { method: "POST", status: 405, level: 30 },
      { method: "POST", status: 404, level: 30 },
      { method: "GET", status: 404, level: 30 },
      { method: "POST", status: 403, level: 30 },
      { method: "POST", status: 400, level: 30 },
    ]);
  });
});
