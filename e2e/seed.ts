/**
 * Before the browser tests' server starts, in one process: the e2e members are made with the
 * admin command's own code (`npm run admin -- create-user ...`), then each e2e manager enrols an
 * authenticator app, as on /profile/two-factor, so they sign in with a code like a real manager
 * (REQUIRE_MANAGER_2FA is on). The otpauth:// addresses go to DATA_DIR/e2e-totp.json for the
 * tests to compute codes from. One process opens the database once (a process per member cost
 * a Node start and a database opening each).
 *
 *   node --import tsx e2e/seed.ts '[{"email":…,"password":…,"first":…,"last":…,"role":…}, …]'
 */
import fs from "node:fs";
import path from "node:path";
import { signIn } from "~/features/accounts/accounts.server";
import { eq } from "drizzle-orm";
import { runAdminCommand } from "~/ops/control/admin.server";
import { closeDatabase, database, openDatabase, setDatabase } from "~/platform/db/client.server";
import { profiles, rateLimits } from "~/platform/db/schema";
import { config } from "~/platform/config.server";
import { cookieHeader, enrolTotp } from "../tests/helpers/two-factor";

export const E2E_TOTP_FILE = "e2e-totp.json";

type Account = { email: string; password: string; first: string; last: string; role: string };

async function main() {
  const accounts = JSON.parse(process.argv[2] ?? "[]") as Account[];
  const cfg = config();
  setDatabase(await openDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir }));
  const enrolled: Record<string, { uri: string; backupCodes: string[] }> = {};
  try {
    for (const { email, password, first, last, role } of accounts) {
      const created = await runAdminCommand([
        "create-user",
        "--email",
        email,
        "--password",
        password,
        "--first",
        first,
        "--last",
        last,
        "--role",
        role,
      ]);
      if (created.code !== 0) throw new Error(`${email}: ${created.err.join("\n")}`);
    }
    for (const [i, { email, password }] of accounts.filter((account) => account.role === "manager").entries()) {
      const signedIn = await signIn({ email, password }, new Request("http://localhost/auth"), `203.0.113.${i + 1}`);
      if (!signedIn.ok || signedIn.secondStep) throw new Error(`${email}: sign-in before enrolment failed`);
      const [row] = await (
        await database()
      )
        .select({ id: profiles.id })
        .from(profiles)
        .where(eq(profiles.email, email));
      if (!row) throw new Error(`${email}: no such member`);
      const { uri, backupCodes } = await enrolTotp({
        id: row.id,
        email,
        password,
        cookie: cookieHeader(signedIn.setCookies),
      });
      enrolled[email] = { uri, backupCodes };
    }
    // The enrolment's password checks count against the sign-in limits; the tests start afresh.
    await (await database()).delete(rateLimits);
  } finally {
    await closeDatabase();
  }
  fs.writeFileSync(path.join(cfg.dataDir, E2E_TOTP_FILE), JSON.stringify(enrolled), { mode: 0o600 });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
