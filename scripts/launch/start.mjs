// `npm start`: builds when the sources changed since the last build, then becomes the
// server. npm runs it with `exec`, so this process is the one npm's shell started and npm
// passes a supervisor's SIGTERM or SIGINT to it; once the server runs here, the server's
// own handlers finish requests in flight, close the database and exit.
import { buildIsCurrent, buildSite } from "./build.mjs";
import { refuseUnsupportedNode } from "./node-version.mjs";

refuseUnsupportedNode();

let stopped = false;
const stopDuringBuild = () => {
  stopped = true;
};
process.on("SIGINT", stopDuringBuild);
process.on("SIGTERM", stopDuringBuild);

if (buildIsCurrent()) {
  console.log("The build is up to date with the sources: starting it.");
} else {
  console.log("Building the site (the sources changed since the last build)...");
  const code = await buildSite();
  // Stopped while building: the build was stopped with it (child.mjs); do not serve.
  if (code !== 0 || stopped) process.exit(code || 143);
}
process.off("SIGINT", stopDuringBuild);
process.off("SIGTERM", stopDuringBuild);
await import("../../server.mjs");
