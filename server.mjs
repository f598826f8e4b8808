// Starts the production server from the build (`npm run build` first; `npm start` builds
// when the sources changed, then runs this file in that same process: scripts/launch/start.mjs).
import fs from "node:fs";
import { loadSettingsFile } from "./scripts/launch/env-file.mjs";
import { refuseUnsupportedNode } from "./scripts/launch/node-version.mjs";

refuseUnsupportedNode();

// Settings from a .env file in the working directory, when there is one (or HOPEWELL_ENV_FILE's,
// or none); variables set in the environment itself win over the file.
loadSettingsFile();
process.env.NODE_ENV ??= "production";

if (!fs.existsSync(new URL("./build/server/index.js", import.meta.url))) {
  console.error("No build found. Run `npm run build` (or `npm start`, which builds first).");
  process.exit(1);
}

try {
  const { start } = await import("./build/server/index.js");
  await start();
} catch (error) {
  console.error(`Hopewell could not start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
