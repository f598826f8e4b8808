import { createRequire } from "node:module";

/**
 * The tests run with NODE_ENV=test, and React chooses its build by NODE_ENV when it is first
 * loaded: under "test" that is the development build, whose checks on every element made
 * rendering cost about twice what it does on the site, which runs the production build. React is
 * loaded here first, as production, and every later import gets that copy (Node keeps one module
 * per file); the JSX is compiled for it (vitest.config.ts). NODE_ENV goes back to "test" at once,
 * so the app's own settings are those of a test run.
 */
const require = createRequire(import.meta.url);
const mode = process.env.NODE_ENV;
process.env.NODE_ENV = "production";
try {
  // react-dom/server (Node's build) is the renderer the site's pages use (app/web/render-whole.server.ts).
  for (const id of ["react", "react/jsx-runtime", "react-dom", "react-dom/server"]) require(id);
} finally {
  process.env.NODE_ENV = mode;
}
