import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type Page } from "@playwright/test";
import { askRunningServer } from "../app/ops/control/control-socket.server";
import type { AdminOutcome } from "../app/ops/control/admin.server";
import * as OTPAuth from "otpauth";
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { totpNow } from "../tests/helpers/totp";
import { E2E_MANAGERS } from "../playwright.config";

/** Ticks the ALTCHA checkbox and waits for the proof of work to finish. */
export async function solveCaptcha(page: Page) {
  // The widget draws its own box over the real checkbox; a person clicks the label.
  await page.locator("altcha-widget label", { hasText: "I'm not a robot" }).click();
  await expect(page.locator('altcha-widget .altcha[data-state="verified"]')).toBeVisible({ timeout: 20_000 });
}

/** The main navigation as shown at this width, opening the phone menu if there is one. */
export async function mainNav(page: Page, isMobile: boolean) {
  if (isMobile) {
    const menu = page.locator("summary", { hasText: "Menu" });
    const details = menu.locator("xpath=..");
    if ((await details.getAttribute("open")) === null) await menu.click();
  }
  return page.getByRole("navigation", { name: "Main" }).locator("visible=true");
}

export type E2eMember = {
  email: string;
  password: string;
  first: string;
  last: string;
  role: "applicant" | "player" | "cast" | "manager";
};

/** Where a running server keeps its data: the shared e2e server's unless a spec started its own. */
export type ServerData = { dataDir: string; databaseUrl?: string };

/**
 * Makes a member as an operator would with `npm run admin -- create-user`. On the embedded
 * database (the server's alone) the admin command hands the work to the running server over its
 * control socket: so does this, without starting a process for it. On PostgreSQL the command
 * connects itself, and is run.
 */
export async function createMember(
  member: Partial<E2eMember> & Pick<E2eMember, "first" | "last">,
  server: ServerData = { dataDir: process.env.E2E_DATA_DIR! },
): Promise<E2eMember> {
  const full: E2eMember = {
    email: `${member.first.toLowerCase()}.${member.last.toLowerCase()}@e2e.test`,
    password: "Lantern#1877",
    role: "player",
    ...member,
  };
  const argv = [
    "create-user",
    "--email",
    full.email,
    "--password",
    full.password,
    "--first",
    full.first,
    "--last",
    full.last,
    "--role",
    full.role,
  ];
  if (server.databaseUrl) {
    await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...argv], {
      env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: server.databaseUrl },
    });
    return full;
  }
  const outcome = await askRunningServer<AdminOutcome>(server.dataDir, "/admin", { argv });
  if (outcome.code !== 0) throw new Error(`create-user ${full.email}: ${outcome.err.join("\n")}`);
  return full;
}

export function uniqueEmail(prefix: string) {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

export async function signUp(
  page: Page,
  { firstName, lastName, email, password }: { firstName: string; lastName: string; email: string; password: string },
) {
  await page.goto("/auth?mode=signup");
  await page.getByLabel("First name").fill(firstName);
  await page.getByLabel("Last name").fill(lastName);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm password", { exact: true }).fill(password);
  await solveCaptcha(page);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Account created successfully! You can now sign in.")).toBeVisible();
}

/**
 * Signs in from /auth. A member with an authenticator app enrolled before the run (the e2e
 * managers, e2e/seed.ts) continues on the second step with the app's current code.
 */
export async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await solveCaptcha(page);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  const enrolment = enrolledTotp(email);
  if (enrolment) {
    await page.waitForURL(/\/auth\/two-factor/);
    await enterTotp(page, enrolment.uri);
  }
}

/**
 * Signs a member without a second factor in within `page`'s browser, for the tests whose subject
 * is not signing in: the /auth form's own post (email, password and a CAPTCHA solved here as the
 * widget solves it), sent from the browser's context so that the session cookie lands in its
 * jar. Typing into the form, loading the widget and solving in the page cost seconds a time on a
 * shared 2-core machine; signing in through the form is tested where it is the subject (accounts,
 * captcha-retry, two-factor, devices...). Fails unless the server signs the member in.
 */
export async function signInByPost(
  page: Page,
  email: string,
  password: string,
  site: string = test.info().project.use.baseURL!,
) {
  const request = page.context().request;
  const challenge = (await (await request.get("/captcha/challenge")).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  const altcha = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
  // A state-changing request must come from the site's own pages (its Origin is checked).
  const origin = new URL(site).origin;
  const response = await request.post("/auth", {
    form: { intent: "signin", email, password, altcha },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(response.status(), `signing ${email} in: ${response.status()}`).toBe(302);
  expect(response.headers().location).toBe("/");
}

/**
 * On /profile/two-factor: sets up an authenticator app as a member does (the password, then the
 * app's first code) and returns the app's otpauth:// address, to compute its later codes.
 */
export async function enrolAuthenticatorApp(
  page: Page,
  password: string,
  wait: { timeout?: number } = {},
): Promise<string> {
  await page.getByLabel("Your password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  const uri = (await page.locator('input[name="uri"]').getAttribute("value"))!;
  await page.getByLabel("Code from the app").fill(totpNow(uri));
  await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await expect(page.getByText("Two-factor authentication is on.")).toBeVisible(wait);
  return uri;
}

const TOTP_PERIOD_MS = 30_000;

/**
 * An authenticator code for `uri` that no earlier sign-in of this run has used. The site takes
 * each code once per account, and the browser tests sign the same managers in from several
 * workers, often within one 30-second step. The site also accepts the code of the step before
 * and the step after the current one, so there are up to three to choose from; a code is claimed
 * by creating a file of its own in the run's data directory (creating a file that must not
 * exist yet is atomic across processes). When all three are taken, it waits for the next step.
 */
export async function unusedTotp(uri: string): Promise<string> {
  const totp = OTPAuth.URI.parse(uri);
  for (;;) {
    const now = Date.now();
    const intoStep = now % TOTP_PERIOD_MS;
    // The step before is taken only early in a step, so it is still good when the server checks it.
    const offsets = intoStep < TOTP_PERIOD_MS / 2 ? [0, TOTP_PERIOD_MS, -TOTP_PERIOD_MS] : [0, TOTP_PERIOD_MS];
    for (const offset of offsets) {
      const step = Math.floor((now + offset) / TOTP_PERIOD_MS);
      const claim = path.join(
        process.env.E2E_DATA_DIR!,
        `totp-claimed-${createHash("sha256").update(`${uri}#${step}`).digest("hex").slice(0, 24)}`,
      );
      try {
        fs.writeFileSync(claim, "", { flag: "wx" });
        return totp.generate({ timestamp: now + offset });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, TOTP_PERIOD_MS - intoStep + 200));
  }
}

/** Fills an authenticator code no other sign-in of the run has used on /auth/two-factor, and sends it. */
export async function enterTotp(page: Page, uri: string) {
  await page.getByLabel("Authenticator code").fill(await unusedTotp(uri));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).not.toHaveURL(/\/auth\/two-factor/);
}

let enrolments: Record<string, { uri: string; backupCodes: string[] }> | undefined;

/** The authenticator app enrolled for `email` before the run, if any. */
export function enrolledTotp(email: string): { uri: string; backupCodes: string[] } | undefined {
  enrolments ??= JSON.parse(fs.readFileSync(path.join(process.env.E2E_DATA_DIR!, "e2e-totp.json"), "utf8")) as Record<
    string,
    { uri: string; backupCodes: string[] }
  >;
  return enrolments[email];
}

/** The manager account of the running test's browser width (each width has its own). */
export function e2eManager(): { email: string; password: string } {
  return E2E_MANAGERS[test.info().project.name as keyof typeof E2E_MANAGERS];
}

/** Adds an event on /events/manage as the signed-in manager on `page`. */
export async function addEvent(
  page: Page,
  { title, date, status, ticketUrl }: { title: string; date: string; status: "future" | "past"; ticketUrl?: string },
) {
  await page.goto("/events/manage");
  await page.getByLabel("Title").first().fill(title);
  await page.getByLabel("Date").first().fill(date);
  await page.getByLabel("Status").first().selectOption(status);
  if (ticketUrl) await page.getByLabel("Ticket link").first().fill(ticketUrl);
  await page.getByRole("button", { name: "Add Event" }).click();
  await expect(page.getByText("Event added.")).toBeVisible();
}

/** On /events/manage (already open): adds a future event sold on the site at `price` dollars, with `places` if limited. */
export async function addTicketedEvent(
  page: Page,
  { title, date, price, places }: { title: string; date: string; price: string; places?: string },
) {
  await page.getByLabel("Title").first().fill(title);
  await page.getByLabel("Date").first().fill(date);
  await page.getByLabel("Ticket price (dollars)").first().fill(price);
  if (places) await page.getByLabel("Places").first().fill(places);
  await page.getByRole("button", { name: "Add Event" }).click();
  await expect(page.getByText("Event added.")).toBeVisible();
}

/**
 * Full-page pictures of the page at each width, for a person to look at (the tests that take
 * them run at desktop width only); the page is then put back to its own size.
 */
export async function screenshots(page: Page, widths: number[], path: (width: number) => string) {
  const before = page.viewportSize()!;
  for (const width of widths) {
    await page.setViewportSize({ width, height: before.height });
    await page.screenshot({ path: path(width), fullPage: true });
  }
  await page.setViewportSize(before);
}

/** Puts a member on an event's attendance list, in a cabin, through the attendance tool (a manager's page). */
export async function addAttendance(page: Page, eventLabel: string, email: string, search: string, cabin: string) {
  await page.goto("/attendance-tool");
  await page.getByLabel("Event", { exact: true }).selectOption({ label: eventLabel });
  await page.getByLabel("Find a member").fill(search);
  await page.getByLabel(new RegExp(email.replace(/[.@]/g, "\\$&"))).check();
  await page.getByLabel("Cabin (optional)").selectOption(cabin);
  await page.getByRole("button", { name: "Add Attendance" }).click();
  await expect(page.getByText("Attendance added successfully!")).toBeVisible();
}
