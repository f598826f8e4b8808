import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // scripts/launch/build.mjs builds beside the running site's build/, then puts the new one in its place.
  buildDirectory: process.env.HOPEWELL_BUILD_DIR ?? "build",
  // The whole route table (about 70 routes) reaches the browser as one cached file with the
  // first page. "lazy" discovery instead matched every parent path of each page against the
  // whole table while rendering it (about 140 µs of every signed-in page), inlined a part of
  // the table into each page, and asked the server for more as links appeared.
  routeDiscovery: { mode: "initial" },
  // Middleware, split route modules, Vite's environment API, the raw request in loaders and
  // trailing-slash-aware data requests were React Router 7's v8_ flags; React Router 8 always
  // has them, and has no future flag this site takes (docs/decisions/0037-react-router-8.md).
} satisfies Config;
