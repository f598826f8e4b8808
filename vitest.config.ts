import { reactRouter } from "@react-router/dev/vite";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import ProcessTestsSpreadOut from "./tests/setup/sequencer";

// No .env is read by the servers and commands the tests start (scripts/launch/env-file.mjs): a
// developer's own, naming their club's database, would otherwise be where the tests write. Set in
// this process (the global setup's build) and in every test file's (test.env below).
const NO_ENV_FILE = { HOPEWELL_ENV_FILE: "none" };
Object.assign(process.env, NO_ENV_FILE);

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  // The HTTP tests run http/app.ts from the source, in the test's own module graph:
  // React Router's plugin gives it the app (virtual:react-router/server-build), so no
  // build is needed and the test and the app share one database module.
  plugins: [
    reactRouter(),
    {
      // The plugin resolves server code with the "module" condition first, as Vite's SSR does;
      // Vitest then hands a package's bundler-only build (e.g. the AWS SDK's dist-es, whose
      // imports have no file extensions) to Node. Node's own choice ("node") is kept instead.
      name: "hopewell:node-resolution",
      enforce: "post",
      // React's production build, as the site runs it (tests/setup/production-react.ts): the
      // development build's checks made rendering pages about half of the HTTP tests' time.
      config: () => ({ esbuild: { jsxDev: false } }),
      configEnvironment(_name, options) {
        if (options.resolve?.conditions)
          options.resolve.conditions = options.resolve.conditions.filter((condition) => condition !== "module");
      },
    },
  ],
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/global-setup.ts"],
    // The files of a worker share one module graph: each file paid about ten seconds importing the
    // app afresh. What modules keep is put back between files (tests/setup/between-files.ts).
    isolate: false,
    setupFiles: ["tests/setup/production-react.ts", "tests/setup/between-files.ts"],
    sequence: { sequencer: ProcessTestsSpreadOut },
    environment: "node",
    // A stylesheet's address (`app.css?url`, for the page's <link>) is kept, as in the site; other CSS is skipped.
    css: { include: [/[?&]url\b/] },
    // Two test files at once, each in a process of its own. Vitest's default is one fewer than the
    // CPUs: a single file at a time on a 2-core machine, which then often waits (on a database, a
    // server's answer, a process it started, a timer) with a core idle. Three at once made the first
    // requests of freshly started app servers overrun the 30 s test timeout on a loaded machine.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // CAPTCHA_TEST_WORK: challenges that take a few derivations instead of thousands (refused in
    // production); tests/features/accounts/accounts.test.ts checks the production cost is unchanged.
    env: { NODE_ENV: "test", CAPTCHA_TEST_WORK: "10", ...NO_ENV_FILE },
  },
});
