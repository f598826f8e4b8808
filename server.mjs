// Starts the production server from the build (`npm run build` first; `npm start` does both).
import fs from "node:fs";

process.env.NODE_ENV ??= "production";

if (!fs.existsSync(new URL("./build/server/index.js", import.meta.url))) {
  console.error("No build found. Run `npm run build` (or `npm start`, which builds first).");
  process.exit(1);
}

const { start } = await import("./build/server/index.js");
try {
  await start();
} catch (error) {
  console.error(`Hopewell could not start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
