/**
 * Administration from the command line, e.g. to make a fresh install's first manager:
 *
 *   npm run admin -- create-user --email E --password P --first F --last L --role manager
 *   npm run admin -- set-role --email E --role player
 *
 * With the embedded database, stop the site first: only one process may open DATA_DIR.
 */
import { parseArgs } from "node:util";
import { SignUpForm, fieldErrors } from "~/forms/auth";
import { isRole, ROLES } from "~/game/roles";
import { createAccount, setRole } from "~/server/accounts.server";
import { config } from "~/server/config.server";
import { closeDatabase, openDatabase, setDatabase } from "~/server/db/client.server";

const USAGE = `Usage:
  npm run admin -- create-user --email E --password P --first F --last L [--role ${ROLES.join("|")}]
  npm run admin -- set-role --email E --role ${ROLES.join("|")}`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      first: { type: "string" },
      last: { type: "string" },
      role: { type: "string" },
    },
    strict: true,
  });
  if (command !== "create-user" && command !== "set-role") fail(USAGE);
  if (values.role !== undefined && !isRole(values.role)) fail(`--role must be one of: ${ROLES.join(", ")}`);

  setDatabase(await openDatabase({ databaseUrl: config().databaseUrl, dataDir: config().dataDir }));
  try {
    if (command === "create-user") {
      const parsed = SignUpForm.safeParse({
        firstName: values.first,
        lastName: values.last,
        email: values.email,
        password: values.password,
        confirmPassword: values.password,
      });
      if (!parsed.success) {
        const problems = Object.entries(fieldErrors(parsed.error)).map(([field, message]) => `  --${field}: ${message}`);
        fail(`${USAGE}\n\n${problems.join("\n")}`);
      }
      const outcome = await createAccount(parsed.data);
      if (!outcome.ok) fail(outcome.message);
      if (values.role && values.role !== "applicant") await setRole(parsed.data.email, values.role as never);
      console.log(`Created ${parsed.data.email} (${values.role ?? "applicant"}).`);
    } else {
      if (!values.email || !values.role) fail(USAGE);
      if (!(await setRole(values.email, values.role as never))) fail(`No account has the email ${values.email}.`);
      console.log(`${values.email} is now ${values.role}.`);
    }
  } finally {
    await closeDatabase();
  }
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
