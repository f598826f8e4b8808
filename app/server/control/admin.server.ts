import { parseArgs } from "node:util";
import { SignUpForm } from "~/forms/auth";
import { fieldErrors } from "~/forms/kernel";
import { isRole, ROLES } from "~/game/roles";
import { createAccount, setRole } from "../accounts.server";

export const ADMIN_USAGE = `Usage:
  npm run admin -- create-user --email E --password P --first F --last L [--role ${ROLES.join("|")}]
  npm run admin -- set-role --email E --role ${ROLES.join("|")}`;

/** What a command printed and its exit code: the CLI prints it, in its own process or relayed from the server's. */
export type AdminOutcome = { code: number; out: string[]; err: string[] };

/** Runs one administration command on the open database (the CLI's own, or the running server's). */
export async function runAdminCommand(argv: string[]): Promise<AdminOutcome> {
  const out: string[] = [];
  const fail = (message: string): AdminOutcome => ({ code: 1, out, err: [message] });
  const [command, ...rest] = argv;
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({
      args: rest,
      options: { email: { type: "string" }, password: { type: "string" }, first: { type: "string" }, last: { type: "string" }, role: { type: "string" } },
      strict: true,
    }).values;
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${ADMIN_USAGE}`);
  }
  if (command !== "create-user" && command !== "set-role") return fail(ADMIN_USAGE);
  if (values.role !== undefined && !isRole(values.role)) return fail(`--role must be one of: ${ROLES.join(", ")}`);

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
      return fail(`${ADMIN_USAGE}\n\n${problems.join("\n")}`);
    }
    const outcome = await createAccount(parsed.data);
    if (!outcome.ok) return fail(outcome.message);
    if (values.role && values.role !== "applicant") await setRole(parsed.data.email, values.role as never);
    out.push(`Created ${parsed.data.email} (${values.role ?? "applicant"}).`);
  } else {
    if (!values.email || !values.role) return fail(ADMIN_USAGE);
    if (!(await setRole(values.email, values.role as never))) return fail(`No account has the email ${values.email}.`);
    out.push(`${values.email} is now ${values.role}.`);
  }
  return { code: 0, out, err: [] };
}
