import { parseArgs } from "node:util";
import { SignUpForm } from "~/features/accounts/auth.form";
import { fieldErrors } from "~/web/forms/kernel";
import { isRole, ROLES, type Role } from "~/game/roles";
import { confirmAddressVouchedFor, createAccount } from "~/features/accounts/accounts.server";
import { changeRole, type RoleChange } from "~/identity/roles.server";

/** The admin command acts as the operator "cli": it has no account, and the audit log names it so. */
const OPERATOR = { operator: "cli" } as const;

/** What the command says when a role could not be set. */
function roleRefusal(outcome: RoleChange, email: string): string | undefined {
  if (outcome === "not-found") return `No account has the email ${email}.`;
  if (outcome === "last-manager")
    return `${email} is the only manager. There must always be at least one manager: make someone else a manager first.`;
  return undefined;
}

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
      options: {
        email: { type: "string" },
        password: { type: "string" },
        first: { type: "string" },
        last: { type: "string" },
        role: { type: "string" },
      },
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
    await confirmAddressVouchedFor(outcome.userId);
    const role = (values.role ?? "applicant") as Role;
    const refused = roleRefusal(await changeRole(OPERATOR, { email: parsed.data.email }, role), parsed.data.email);
    if (refused) return fail(refused);
    out.push(`Created ${parsed.data.email} (${role}).`);
    out.push(
      "Its address counts as confirmed, since you typed it: signing in with an emailed code keeps its password.",
    );
  } else {
    if (!values.email || !values.role) return fail(ADMIN_USAGE);
    const outcome = await changeRole(OPERATOR, { email: values.email }, values.role as Role);
    const refused = roleRefusal(outcome, values.email);
    if (refused) return fail(refused);
    out.push(
      outcome === "unchanged" ? `${values.email} is already ${values.role}.` : `${values.email} is now ${values.role}.`,
    );
  }
  return { code: 0, out, err: [] };
}
