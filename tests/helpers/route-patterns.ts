import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "~/routes";

/** Every route pattern of app/routes.ts, written as the access table writes them ("/auth", "/*"). */
export function routePatterns(entries: RouteConfigEntry[] = routes, parent = ""): string[] {
  const patterns: string[] = [];
  for (const entry of entries) {
    const path = entry.index ? parent : [parent, entry.path ?? ""].filter(Boolean).join("/");
    if (entry.index || entry.path !== undefined) patterns.push(`/${path}`.replace(/\/+/g, "/"));
    if (entry.children) patterns.push(...routePatterns(entry.children, path));
  }
  return [...new Set(patterns)];
}
