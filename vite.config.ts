import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  // The production HTTP server (http/start.ts, serving http/app.ts) is bundled with the app so that it
  // shares one database module with the loaders and actions.
  environments: {
    // Rollup makes a file of every module two routes share, some of a few hundred bytes; a
    // member page asked for 27 files. Small shared files are folded into the files that use them.
    client: {
      build: { rollupOptions: { output: { experimentalMinChunkSize: 8_000 } } },
    },
    ssr: {
      build: { rollupOptions: { input: "./http/start.ts" } },
    },
  },
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  // The development server's scan of the browser's imports follows the routes into their
  // server modules; the password hasher is native code with no browser build to bundle
  // (the failed attempt left pages, e.g. the sign-in CAPTCHA, without their scripts). The
  // image library (sharp, for costume photos) is native code too.
  optimizeDeps: { exclude: ["@node-rs/argon2", "sharp"] },
  plugins: [tailwindcss(), reactRouter()],
  // Workers, and the scripts of the pages the server alone draws (web/page-script.ts), which
  // Vite bundles the same way, are ES modules: their own imports load as separate files, when
  // needed (the sign-in page's passkey library only when a passkey is used).
  worker: { format: "es" },
});
