import { expect, test as base, type Browser, type BrowserContext, type FullProject, type Page } from "@playwright/test";
import { E2E_MANAGERS, E2E_PLAYERS } from "../playwright.config";
import { signIn } from "./helpers";

export { expect };

export type SignedInState = Awaited<ReturnType<BrowserContext["storageState"]>>;

/**
 * Signs in through /auth as a person would (the CAPTCHA, and the authenticator code for a
 * manager) in a browser of this width, and keeps the session's cookies.
 */
async function signedInState(
  browser: Browser,
  project: FullProject,
  account: { email: string; password: string },
): Promise<SignedInState> {
  const { baseURL, extraHTTPHeaders, userAgent, viewport } = project.use;
  const context = await browser.newContext({ baseURL, extraHTTPHeaders, userAgent, viewport });
  try {
    const page = await context.newPage();
    await page.goto("/auth");
    await signIn(page, account.email, account.password);
    await expect(page).toHaveURL(/\/$/);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/**
 * The e2e manager and player of the browser width, signed in once per worker and reused by
 * the tests that are not about signing in: each sign-in solves a CAPTCHA (and a manager's
 * enters a code), which on a shared 2-core machine cost seconds per test. Signing in itself is
 * tested where it is the subject (accounts, captcha-retry, two-factor, devices...).
 */
export const test = base.extend<object, { managerState: SignedInState; playerState: SignedInState }>({
  managerState: [
    async ({ browser }, use, workerInfo) => {
      await use(
        await signedInState(
          browser,
          workerInfo.project,
          E2E_MANAGERS[workerInfo.project.name as keyof typeof E2E_MANAGERS],
        ),
      );
    },
    { scope: "worker", timeout: 60_000 },
  ],
  playerState: [
    async ({ browser }, use, workerInfo) => {
      await use(
        await signedInState(
          browser,
          workerInfo.project,
          E2E_PLAYERS[workerInfo.project.name as keyof typeof E2E_PLAYERS],
        ),
      );
    },
    { scope: "worker", timeout: 60_000 },
  ],
});

/** Gives the test's own browser (its width and device) a session kept by a fixture above. */
export async function withSession(page: Page, state: SignedInState) {
  await page.context().addCookies(state.cookies);
}
