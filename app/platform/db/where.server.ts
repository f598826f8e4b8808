import fs from "node:fs";
import path from "node:path";

/**
 * Which database a process works on, in words an operator can check against their settings:
 * every command prints it, so a backup, an import or a new manager never lands unnoticed in a
 * database the site does not use. The password in DATABASE_URL is never shown.
 */
export function databaseLabel(databaseUrl: string | undefined, dataDir: string): string {
  if (!databaseUrl) return `the embedded database in ${path.join(dataDir, "pgdata")}`;
  const { database, server, user } = databaseTarget(databaseUrl);
  return `PostgreSQL database "${database}" on ${server}${user ? `, user ${user}` : ""}`;
}

/**
 * What DATABASE_URL names, as PostgreSQL takes it: the server (host:port, localhost and 5432 when
 * left out), the database (the user's name when left out, as libpq does) and the user, if any.
 * The one reading of it for every message that names them; the password is left out.
 */
export function databaseTarget(databaseUrl: string): {
  host: string;
  server: string;
  database: string;
  user: string | undefined;
} {
  const url = new URL(databaseUrl);
  const host = url.hostname || "localhost";
  const user = decodeURIComponent(url.username) || undefined;
  const database = decodeURIComponent(url.pathname.replace(/^\//, "")) || user || "postgres";
  return { host, server: `${host}:${url.port || "5432"}`, database, user };
}

/** True when the data directory holds an embedded database (PostgreSQL writes PG_VERSION when it makes one). */
export function holdsEmbeddedDatabase(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, "pgdata", "PG_VERSION"));
}

/**
 * When DATABASE_URL is set and DATA_DIR still holds an embedded database (the site ran without
 * it once, or a command ran without the settings), the warning to print: that database is not
 * the site's, and anything found in it is not what the site shows.
 */
export function embeddedDatabaseBeside(databaseUrl: string | undefined, dataDir: string): string | undefined {
  if (!databaseUrl || !holdsEmbeddedDatabase(dataDir)) return undefined;
  return `DATA_DIR (${dataDir}) also holds an embedded database, which is not used while DATABASE_URL is set: it is left from a run without DATABASE_URL. Move ${path.join(dataDir, "pgdata")} away once you have checked that nothing in it is needed.`;
}
