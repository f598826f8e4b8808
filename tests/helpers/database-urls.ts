import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Changes whenever a migration is added or edited, so cached snapshots stay honest. */
export function migrationsHash(dir: string): string {
  const hash = crypto.createHash("sha256");
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(entry.name).update(fs.readFileSync(full));
    }
  };
  walk(dir);
  return hash.digest("hex").slice(0, 16);
}

/** True when a PostgreSQL server answers at `url` within three seconds (tests that need one skip, saying so, when none does). */
export async function postgresAnswers(url: string): Promise<boolean> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
