import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";

/** What an operator finds in the checkout: files that say what the site does, and a git status that stays clean. */
describe("the operators' files", () => {
  it("keeps backups, the site's user's npm cache and builds in progress out of git", () => {
    // `npm run backup` writes to ./backups by default: archives of every password hash must never be committed.
    for (const file of [
      "backups/hopewell-backup-2026-05-02T18-04-11Z.tar.gz",
      "build.next/server/index.js",
      "build.old-4242/client/x.js",
      ".npm/_cacache/index",
    ]) {
      expect(() => execFileSync("git", ["check-ignore", "-q", file]), file).not.toThrow();
    }
  });

  it("keeps builds in progress, and those left by a build killed, out of the lint", async () => {
    const { ESLint } = await import("eslint");
    const eslint = new ESLint();
    for (const file of ["build.next/server/index.js", "build.old-4242/client/x.js"])
      expect(await eslint.isPathIgnored(file), file).toBe(true);
  });

  it("shows nginx's restarting page only when the site cannot be reached, saying a form sent then was lost", () => {
    const site = fs.readFileSync("deploy/nginx/hopewell-site.conf", "utf8");
    // 504 is the site answering too slowly: not a restart.
    expect(site.match(/^\s*error_page .*@restarting;$/gm)).toEqual(["    error_page 502 =503 @restarting;"]);
    const page = site.slice(site.indexOf("location @restarting"));
    expect(page).toContain("<p>If you were sending a form, it was not saved: go back and send it again.</p>");
  });

  it("has .env.example say what a manager's second factor may be, never an emailed code", () => {
    const example = fs.readFileSync(".env.example", "utf8");
    const note = example.slice(0, example.indexOf("REQUIRE_MANAGER_2FA=")).split("\n\n").at(-1)!;
    expect(note).toContain("never an emailed");
    expect(note).not.toMatch(/or emailed code/);
  });
});
