import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { mockDiscordEnv } from "./tests/helpers/discord-oauth";
import { webhookUrl } from "./tests/helpers/webhook";

// Each run starts the production build twice, each on a fresh data directory. The variables are
// set once here, in the runner's process, and inherited by its workers.
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-e2e-"));
process.env.E2E_SERVICES_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-e2e-services-"));
// No .env is read by the servers and commands a run starts (scripts/launch/env-file.mjs): a
// developer's own, naming their club's database, would otherwise be where the tests write.
process.env.HOPEWELL_ENV_FILE = "none";
// Each run has a block of six ports (set once here, inherited by the workers), so two runs on
// one machine do not collide: the two servers, the SMTP server, Discord's stand-in, the SMS gateway's, Stripe's.
process.env.E2E_PORT ??= String(20_000 + (process.pid % 4_000) * 6);
process.env.E2E_SMTP_PORT ??= String(Number(process.env.E2E_PORT) + 1);
const PORT = Number(process.env.E2E_PORT);
/**
 * What every server the browser tests start runs with: the production build, as NODE_ENV=test so
 * that it takes the test suite's cheap CAPTCHA (CAPTCHA_TEST_WORK, which a production start
 * refuses). Each sign-up and sign-in solves one; at the production cost that was over a second
 * of a core each. tests/features/accounts/accounts.test.ts checks the production cost is unchanged.
 */
export const E2E_SERVER_ENV = { NODE_ENV: "test", CAPTCHA_TEST_WORK: "10", LOG_LEVEL: "warn" } as const;
/** The e2e SMTP server's port: tests that read email start a real SMTP server here. */
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT);
/**
 * Stand-ins for the services the second server talks to, started by e2e/global-setup.ts before the
 * tests: a real OAuth server in Discord's place (tests/helpers/discord-oauth.ts), and an HTTP
 * server in an SMS gateway's that keeps the texts it receives for the tests to read.
 */
export const E2E_STAND_INS = {
  discordPort: PORT + 3,
  smsGatewayPort: PORT + 4,
  smsGatewayUrl: webhookUrl(PORT + 4),
  smsGatewayToken: "e2e-gateway-token",
  stripePort: PORT + 5,
  stripeWebhookSecret: "whsec_e2e_stand_in",
};
/**
 * The second server, for the specs that need what the first is configured without: sign-in with
 * Discord and codes by text message (against the stand-ins above), and the site's own sign-up
 * throttle. One server started with the run serves them all; each of those specs used to start
 * one of its own. Its specs make their own members here (createMember with this data directory),
 * with names of their own for each try, so that a retry does not meet what an earlier try left.
 */
export const E2E_SERVICES_SERVER = {
  port: PORT + 2,
  url: `http://127.0.0.1:${PORT + 2}`,
  dataDir: process.env.E2E_SERVICES_DATA_DIR!,
};
/**
 * Members made with the admin command before the server starts. Each browser width has its own
 * manager and player, so the two runs side by side stay within the per-account sign-in limit.
 */
export const E2E_MANAGERS = {
  desktop: { email: "manager-desktop@e2e.test", password: "Manager#1877" },
  phone: { email: "manager-phone@e2e.test", password: "Manager#1877" },
};
export const E2E_PLAYERS = {
  desktop: { email: "player-desktop@e2e.test", password: "Player#1877" },
  phone: { email: "player-phone@e2e.test", password: "Player#1877" },
};
/**
 * Made before the server starts, in one process (e2e/seed.ts): the members with the admin
 * command's code, then each manager enrols an authenticator app, since managers must sign in with
 * a second factor (REQUIRE_MANAGER_2FA); the tests compute its codes (e2e/helpers.ts).
 */
const seedAccounts = [
  ...Object.values(E2E_MANAGERS).map((m) => ({ ...m, first: "Ada", last: "Boss", role: "manager" })),
  ...Object.entries(E2E_PLAYERS).map(([width, p]) => ({
    ...p,
    first: "Wyatt",
    last: width === "desktop" ? "Tanner" : "Bright",
    role: "player",
  })),
];
const seed = `node --import tsx e2e/seed.ts '${JSON.stringify(seedAccounts)}'`;

/**
 * Spec files whose checks do not depend on the screen's width: journeys through forms and tools,
 * the sign-in methods, what the server sends. They run at desktop width only; the phone run keeps
 * what the width changes (layout and look, the phone menu, what is in view, every page's
 * accessibility). A spec file not listed here runs at both widths.
 */
const DESKTOP_ONLY = [
  "attendance-tool",
  "captcha-hosted",
  "captcha-retry",
  "devices",
  "discord",
  "email-code",
  "http",
  "https-proxy",
  "import",
  "leave",
  "outbox",
  "passkeys",
  "phone-factor",
  "review-queue",
  "password-reset",
  "staff-tools",
  "submissions",
  "tickets",
  "two-factor",
  "user-admin",
].map((name) => `**/${name}.spec.ts`);
/**
 * The same for single tests in a file that runs at both widths: a test tagged with it runs at
 * desktop width only. Left out of the phone run (not skipped there), it costs that run nothing.
 */
export const ANY_WIDTH = "@any-width";

/**
 * Debian's Chromium. Its headless shell (package chromium-headless-shell, the same engine without
 * the full browser's windowing layers, which Playwright itself uses for headless runs) ran the
 * browser tests about a quarter faster on two cores; the full browser serves when it is missing.
 */
const CHROMIUM =
  ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((file) => fs.existsSync(file)) ?? "/usr/bin/chromium";
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? CHROMIUM,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  // Playwright's own default is half the cores: one worker on a 2-core machine, which leaves a
  // core idle while the browser waits on the server. Two kept both busy.
  workers: process.env.CI ? 2 : Math.max(2, Math.floor(os.availableParallelism() / 2)),
  // One retry, which records the failure's trace (below): the list reporter names any test that
  // needed it as flaky, so it is seen and fixed.
  retries: 1,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // Recording a trace (a snapshot of the page at every step) for every test, to keep a failure's,
    // made every test about a third slower. A failed test is run again with a trace instead, on a
    // developer's machine as under CI, so `npm test` takes the time CI does.
    trace: "on-first-retry",
    launchOptions: chromium,
  },
  projects: [
    // Each width arrives from its own address (through the trusted proxy header), so the two
    // runs side by side do not share the per-address sign-in limit.
    {
      name: "desktop",
      use: {
        ...devices["Desktop Chrome"],
        viewport: { width: 1280, height: 800 },
        launchOptions: chromium,
        extraHTTPHeaders: { "X-Forwarded-For": "192.0.2.10" },
      },
    },
    {
      name: "phone",
      testIgnore: DESKTOP_ONLY,
      grepInvert: new RegExp(ANY_WIDTH),
      use: { ...devices["Pixel 7"], launchOptions: chromium, extraHTTPHeaders: { "X-Forwarded-For": "192.0.2.20" } },
    },
  ],
  // Playwright's global setup runs once the servers below have started: it waits for the second
  // one, then starts the stand-ins it talks to (neither server asks them anything before a test does).
  globalSetup: "./e2e/global-setup.ts",
  webServer: [
    {
      // Started first and not waited for here (no url): Playwright starts its servers one after
      // the other, and this one boots while the first one's members are made. e2e/global-setup.ts
      // waits for it to answer before the tests start.
      command: "node server.mjs",
      env: {
        PORT: String(E2E_SERVICES_SERVER.port),
        HOST: "127.0.0.1",
        DATA_DIR: E2E_SERVICES_SERVER.dataDir,
        ...E2E_SERVER_ENV,
        APP_URL: E2E_SERVICES_SERVER.url,
        ...mockDiscordEnv(`http://127.0.0.1:${E2E_STAND_INS.discordPort}`),
        SMS_WEBHOOK_URL: E2E_STAND_INS.smsGatewayUrl,
        SMS_WEBHOOK_TOKEN: E2E_STAND_INS.smsGatewayToken,
        // Tickets sold through Stripe Checkout, against the stand-in of Stripe (e2e/tickets.spec.ts).
        STRIPE_SECRET_KEY: "sk_test_e2e_stand_in",
        STRIPE_WEBHOOK_SECRET: E2E_STAND_INS.stripeWebhookSecret,
        STRIPE_API_URL: `http://127.0.0.1:${E2E_STAND_INS.stripePort}`,
        // A texted code reaches the gateway within a fifth of a second.
        OUTBOX_POLL_MS: "200",
        // The Discord spec's manager suspends a member without a second factor of their own.
        REQUIRE_MANAGER_2FA: "false",
        // The sign-up throttle keeps its real 11 seconds. The proxy header is trusted so that a
        // test can stand in another address for the seconds passing, and so that each spec's
        // browsers arrive from the address of their width.
        TRUST_PROXY: "1",
        // Three specs share the server, each signing in from the desktop width's address; the
        // address limit is tested for real in tests/http and tests/integration.
        SIGN_IN_ADDRESS_LIMIT: "100000",
      },
    },
    {
      command: `${seed} && node server.mjs`,
      url: `http://127.0.0.1:${PORT}/healthz`,
      reuseExistingServer: false,
      // Making the members and the managers' second factors opens the database, then the server does: slow on a busy machine.
      timeout: 240_000,
      env: {
        PORT: String(PORT),
        DATA_DIR: process.env.E2E_DATA_DIR,
        ...E2E_SERVER_ENV,
        APP_URL: `http://127.0.0.1:${PORT}`,
        SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
        OUTBOX_POLL_MS: "200",
        OUTBOX_RETRY_BASE_MS: "300",
        // Every browser signs up from 127.0.0.1; the 11-second throttle is tested with its real value on the second server.
        SIGNUP_THROTTLE_MS: "0",
        // Contexts a test opens itself share one address (127.0.0.1), and a run signs in far more
        // than 30 times in 15 minutes; the real limit is tested in tests/http and tests/integration.
        SIGN_IN_ADDRESS_LIMIT: "100000",
        // The two e2e managers and players sign in from many tests within 15 minutes.
        SIGN_IN_ACCOUNT_LIMIT: "100000",
        TRUST_PROXY: "1",
      },
    },
  ],
});
