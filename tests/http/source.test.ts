import { describe, expect, it } from "vitest";
import * as app from "virtual:react-router/server-build";
import * as authRoute from "~/routes/auth/auth";
import { withAppServer } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";

/**
 * The HTTP tests run the current source, never a build: the app the test server runs is
 * the one in this test's own module graph, so an edit is tested at once and a route whose
 * source is broken fails the tests that reach it.
 */
withTestDatabase();
const server = withAppServer();

describe("the server the HTTP tests run", () => {
  it("runs the route modules this test imports from app/, not copies from a build", () => {
    expect(app.routes["routes/auth/auth"]?.module).toBe(authRoute);
  });

  it("renders pages from the source files, as Vite serves them", async () => {
    const page = await fetch(`${server().url}/forgot-password`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('href="/app/routes/auth/forgot-password.tsx"');
    expect(html).not.toContain('href="/assets/');
    // A page the server alone draws names its own script's source (web/page-script.ts).
    const signIn = await (await fetch(`${server().url}/auth`)).text();
    expect(signIn).toMatch(
      /<script type="module" src="\/app\/routes\/auth\/auth\.page\.ts\?worker_file&amp;type=module"/,
    );
    expect(signIn).not.toContain("/assets/");
  });
});
