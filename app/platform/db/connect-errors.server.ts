import { databaseTarget } from "./where.server";

/**
 * Why PostgreSQL could not be used, in words that name the setting to change (DATABASE_URL) and
 * what to do: the driver's own "connect ECONNREFUSED 127.0.0.1:5433" or "database "x" does not
 * exist" left a volunteer guessing which file to edit. The password is never repeated.
 */
export class DatabaseSettingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatabaseSettingError";
  }
}

const SEE = 'See "PostgreSQL: the role and the database" in docs/operators.md.';

/** The error to report for `error`, met while connecting to `databaseUrl` or migrating it; other errors as they are. */
export function explainDatabaseError(error: unknown, databaseUrl: string): unknown {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const target = databaseTarget(databaseUrl);
  const { server, database } = target;
  const user = target.user ?? "(none given)";
  switch (code) {
    case "ECONNREFUSED":
      return new DatabaseSettingError(
        `DATABASE_URL: nothing answers at ${server} (connection refused). Check the host and port in DATABASE_URL (PostgreSQL listens on 5432 unless told otherwise) and that PostgreSQL runs there (systemctl status postgresql).`,
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new DatabaseSettingError(
        `DATABASE_URL: the host "${target.host}" is not known. Check the host name in DATABASE_URL.`,
      );
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return new DatabaseSettingError(
        `DATABASE_URL: ${server} cannot be reached (${code}). Check the host and port in DATABASE_URL, and any firewall between this machine and PostgreSQL.`,
      );
    case "3D000":
      return new DatabaseSettingError(
        `DATABASE_URL names the database "${database}", which does not exist on ${server}. Create it, owned by the site's role (sudo -u postgres createdb -O ${user} ${database}), or correct the database's name at the end of DATABASE_URL. ${SEE}`,
      );
    case "28P01":
    case "28000":
      return new DatabaseSettingError(
        `DATABASE_URL: PostgreSQL at ${server} refused the user "${user}" (${message}). Check the user and password in DATABASE_URL, and that the role exists. ${SEE}`,
      );
    case "42501":
      return new DatabaseSettingError(
        `DATABASE_URL: the user "${user}" may not create the site's tables in the database "${database}" (${message}). Make that role the database's owner (sudo -u postgres psql -c 'ALTER DATABASE ${database} OWNER TO ${user}'). ${SEE}`,
      );
    default:
      return error;
  }
}
