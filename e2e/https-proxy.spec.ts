import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { APPLICATION_TEXT_QUESTIONS } from "../app/game/application";
import { E2E_SERVER_ENV } from "../playwright.config";
import { expectAccessible } from "./axe";
import { freePort } from "../tests/helpers/ports";
import { enrolAuthenticatorApp, signIn, signUp, uniqueEmail } from "./helpers";
import { waitForAnswer } from "./own-server";

/**
 * The documented production set-up, for real: Debian's nginx terminates TLS (a
 * self-signed certificate made here) in front of the production build with
 * TRUST_PROXY, and Chromium signs up, signs in and sends a form over https.
 * nginx runs from a temporary directory with its own configuration, pid and logs,
 * including deploy/nginx/hopewell-proxy.conf, the file docs/operators.md tells operators to use.
 *
 * Why a server of its own (the run's two servers cannot serve it): APP_URL must be the proxy's
 * https address, and the first test needs a new site, with no manager yet, to make the first
 * manager with the link the server prints at its start. Without nginx or openssl it is skipped,
 * saying which is missing.
 */
const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

/**
 * deploy/nginx/hopewell-site.conf as an operator fills it in, with this run's ports, certificate
 * and folders in place of the guide's. Each replaced text must be there: a changed file fails here
 * rather than testing something else.
 */
function siteConfig({
  dir,
  appPort,
  httpsPort,
  httpPort,
}: {
  dir: string;
  appPort: number;
  httpsPort: number;
  httpPort: number;
}): string {
  let text = fs.readFileSync("deploy/nginx/hopewell-site.conf", "utf8");
  const replacements: [string, string][] = [
    ["/etc/letsencrypt/live/members.example.org/fullchain.pem", `${dir}/cert.pem`],
    ["/etc/letsencrypt/live/members.example.org/privkey.pem", `${dir}/key.pem`],
    ["members.example.org", "127.0.0.1"],
    ["listen [::]:80;", ""],
    ["listen [::]:443 ssl;", ""],
    ["listen 80;", `listen 127.0.0.1:${httpPort};`],
    ["listen 443 ssl;", `listen 127.0.0.1:${httpsPort} ssl;`],
    ["/var/log/nginx/", `${dir}/`],
    ["/var/www/html", dir],
    ["http://127.0.0.1:3000", `http://127.0.0.1:${appPort}`],
    ["/srv/hopewell/deploy/nginx/hopewell-proxy.conf", path.resolve("deploy/nginx/hopewell-proxy.conf")],
  ];
  for (const [from, to] of replacements) {
    if (!text.includes(from)) throw new Error(`deploy/nginx/hopewell-site.conf no longer has "${from}"`);
    text = text.replaceAll(from, to);
  }
  return text;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once("exit", () => resolve()));
}

test.describe("behind nginx over https", () => {
  // One nginx and one server for both tests, in order: the site starts without a manager.
  test.describe.configure({ timeout: 180_000, mode: "serial" });
  test.skip(({ isMobile }) => isMobile, "one browser width is enough for the proxy");
  // .ci/run installs nginx and openssl; on a machine without them the test says what is missing.
  test.skip(!fs.existsSync(NGINX), `needs nginx at ${NGINX} (Debian: apt-get install nginx; or set NGINX_PATH)`);
  test.skip(!hasOpenssl(), "needs the openssl command (Debian: apt-get install openssl)");

  let dir: string;
  let app: ChildProcess;
  let nginx: ChildProcess;
  let publicUrl: string;
  let appPort: number;
  let httpsPort: number;
  let appOutput = "";
  let nginxOutput = "";

  /** The production server as the guide sets it up behind nginx, with `env` added. */
  function startApp(env: Record<string, string>): ChildProcess {
    const child = spawn(process.execPath, ["server.mjs"], {
      env: {
        ...process.env,
        ...E2E_SERVER_ENV,
        PORT: String(appPort),
        HOST: "127.0.0.1",
        DATA_DIR: path.join(dir, "data"),
        APP_URL: publicUrl,
        SIGNUP_THROTTLE_MS: "0",
        ...env,
      },
      stdio: "pipe",
    });
    child.stdout!.on("data", (chunk: Buffer) => (appOutput += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (appOutput += chunk.toString()));
    return child;
  }

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-https-"));
    [appPort, httpsPort] = [await freePort(), await freePort()];
    const httpPort = await freePort();
    publicUrl = `https://127.0.0.1:${httpsPort}`;
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        path.join(dir, "key.pem"),
        "-out",
        path.join(dir, "cert.pem"),
      ],
      { stdio: "pipe" },
    );

    app = startApp({ TRUST_PROXY: "true" });

    // The guide's whole site file, with this machine's ports, certificate and folders.
    const conf = path.join(dir, "nginx.conf");
    fs.writeFileSync(
      conf,
      `${process.getuid?.() === 0 ? "user root;\n" : ""}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${siteConfig({ dir, appPort, httpsPort, httpPort })}
}
`,
    );
    nginx = spawn(NGINX, ["-p", dir, "-c", conf, "-e", `${dir}/error.log`, "-g", "daemon off;"], { stdio: "pipe" });
    nginx.stderr!.on("data", (chunk: Buffer) => (nginxOutput += chunk.toString()));

    await waitForAnswer(`http://127.0.0.1:${appPort}/healthz`, 90_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${appOutput}`);
    });
  });

  test.afterAll(async () => {
    for (const child of [nginx, app]) {
      if (child && child.exitCode === null) {
        child.kill("SIGTERM");
        await exited(child);
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("the first manager is made in the browser with the link the server printed", async ({ browser }) => {
    const link = new RegExp(`${publicUrl.replace(/[.]/g, "\\.")}/setup\\?token=[\\w-]+`).exec(appOutput)?.[0];
    expect(link, appOutput).toBeDefined();
    const context = await browser.newContext({ baseURL: publicUrl, ignoreHTTPSErrors: true });
    const page = await context.newPage();
    await page.goto(link!);
    await expect(page.getByRole("heading", { level: 1, name: "Create the First Manager" })).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel("First name").fill("Ada");
    await page.getByLabel("Last name").fill("Boss");
    await page.getByLabel("Email", { exact: true }).fill("ada@example.org");
    await page.getByLabel("Password", { exact: true }).fill("Choose#1877");
    await page.getByLabel("Confirm password", { exact: true }).fill("Choose#1877");
    await page.getByRole("button", { name: "Create Manager Account" }).click();
    await expect(page.getByText("Account created successfully! You can now sign in.")).toBeVisible();

    await signIn(page, "ada@example.org", "Choose#1877");
    await expect(page).toHaveURL(`${publicUrl}/`);
    // A manager's tools need a second factor (REQUIRE_MANAGER_2FA): the first manager sets one up.
    await page.goto("/tools?tab=applications");
    await expect(page).toHaveURL(/\/profile\/two-factor\?required=manager&redirectTo=%2Ftools%3Ftab%3Dapplications$/);
    await enrolAuthenticatorApp(page, "Choose#1877");
    await page.getByRole("link", { name: "I have saved them" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Tools" })).toBeVisible();
    // Used once: the link now says so.
    const again = await page.goto(link!);
    expect(again?.status()).toBe(404);
    await expect(page.getByText("This set-up link has been used")).toBeVisible();
    await context.close();
  });

  test("a visitor signs up, signs in and sends a form through the https proxy", async ({ browser }) => {
    const context = await browser.newContext({ baseURL: publicUrl, ignoreHTTPSErrors: true });
    const page = await context.newPage();
    const health = await page.request.get("/healthz");
    expect(health.status(), nginxOutput).toBe(200);

    const email = uniqueEmail("proxied");
    await signUp(page, { firstName: "Prudence", lastName: "Vale", email, password: "Lantern#1877" });
    await signIn(page, email, "Lantern#1877");
    await expect(page).toHaveURL(`${publicUrl}/`);
    // Over https the session cookie is Secure and carries the __Secure- prefix.
    const cookies = await context.cookies();
    expect(cookies.find((cookie) => cookie.name.endsWith("hopewell.session_token"))).toMatchObject({
      secure: true,
      httpOnly: true,
      name: expect.stringMatching(/^__Secure-/),
    });

    await page.goto("/application");
    await page.getByLabel("Your Discord username").fill("prudence_vale");
    await page.getByLabel(/Cast/).check();
    for (const question of APPLICATION_TEXT_QUESTIONS)
      await page.getByLabel(question.label, { exact: true }).fill(`A proxied answer about ${question.key}.`);
    await page.getByRole("button", { name: "Submit Application" }).click();
    await expect(page.getByRole("heading", { name: "Application Submitted!" })).toBeVisible();
    await page.goto("/application");
    await expect(page.getByText("You have already applied")).toBeVisible();

    // nginx really was in between: its access log has the form post.
    const accessLog = fs.readFileSync(path.join(dir, "hopewell.access.log"), "utf8");
    expect(accessLog).toMatch(/"POST \/application(\.data)?[^"]*" 20\d|"POST \/application(\.data)?[^"]*" 30\d/);
    // The first manager's set-up link was followed, and its secret is not in nginx's log.
    expect(accessLog).toMatch(/"GET \/setup HTTP\/1\.1" 200/);
    expect(accessLog).not.toContain("token=");
    expect(accessLog).not.toContain("?");
    await context.close();
  });

  test("while the site restarts nginx says so, and without TRUST_PROXY a form says what to set", async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: publicUrl, ignoreHTTPSErrors: true, javaScriptEnabled: false });
    const page = await context.newPage();
    app.kill("SIGTERM");
    await exited(app);
    // The seconds of a restart: a page that says so and comes back by itself, not a bare 502.
    const down = await page.goto("/events");
    expect(down?.status()).toBe(503);
    expect(down?.headers()["retry-after"]).toBe("10");
    await expect(page.getByRole("heading", { name: "Hopewell is restarting" })).toBeVisible();
    await expect(
      page.getByText("If you were sending a form, it was not saved: go back and send it again."),
    ).toBeVisible();

    // The mistake the guide warns of: TRUST_PROXY left out behind the proxy.
    // At the log level operators run (info): the refusal is a client's mistake, logged at info.
    app = startApp({ TRUST_PROXY: "false", LOG_LEVEL: "info" });
    await waitForAnswer(`http://127.0.0.1:${appPort}/healthz`, 90_000);
    await page.goto("/auth");
    await page.getByLabel("Email", { exact: true }).fill("ada@example.org");
    await page.getByLabel("Password", { exact: true }).fill("Choose#1877");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Form Not Sent" })).toBeVisible();
    await expect(
      page.getByText("If you run the site: set TRUST_PROXY=true in its settings (.env) and restart it."),
    ).toBeVisible();
    expect(appOutput).toMatch(/"level":30,[^\n]*TRUST_PROXY is not set/);
    await context.close();
  });
});
