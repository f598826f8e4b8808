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
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
