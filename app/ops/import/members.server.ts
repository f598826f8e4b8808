// Saving the export's members (exported-members.server.ts reads them): their profiles, keeping their ids,
// and their old passwords.
import crypto from "node:crypto";
import { and, eq, or, sql } from "drizzle-orm";
import { letOtherWorkIn } from "~/platform/db/holds.server";
import { accounts, profiles } from "~/platform/db/schema";
import { isBcryptHash } from "~/identity/passwords.server";
import {
  count,
  databaseReason,
  existingIds,
  flagRow,
  saveVersioned,
  skipRow,
  type ImportContext,
} from "./context.server";
import type { CsvTable } from "./csv.server";
import { ImportError } from "./format.server";
import { readMembers, type Member } from "./exported-members.server";
import { shown, Skip } from "./values.server";

/** The member's profile: new, replaced by a newer export, or left as the site has it. */
async function saveProfile(ctx: ImportContext, member: Member): Promise<"saved" | "skipped"> {
  const { tx } = ctx;
  const found = await tx
    .select({ id: profiles.id, stamp: profiles.updatedAt })
    .from(profiles)
    .where(or(eq(profiles.id, member.id), eq(sql`lower(${profiles.email})`, member.email.toLowerCase())));
  const same = found.find((row) => row.id === member.id);
  if (found.some((row) => row.id !== member.id)) {
    skipRow(
      ctx,
      "profiles",
      "auth_users.csv",
      member.line,
      new Skip("email already used by another account on this site", shown(member.email)),
    );
    return "skipped";
  }
  const values = {
    firstName: member.firstName,
    lastName: member.lastName,
    name: `${member.firstName} ${member.lastName}`.trim(),
    email: member.email,
    role: member.role,
    emergencyContact: member.emergencyContact,
    updatedAt: member.stamp,
  };
  const outcome = await saveVersioned(same, member.stamp, {
    insert: () => tx.insert(profiles).values({ id: member.id, ...values, createdAt: member.createdAt }),
    update: () => tx.update(profiles).set(values).where(eq(profiles.id, member.id)),
  });
  count(ctx, "profiles", outcome);
  // The export carries no signature (decision 0035): the one row that hands out power is named for the operator to check.
  if (member.role === "manager" && (outcome === "imported" || outcome === "updated")) {
    flagRow(
      ctx,
      "profiles",
      "auth_users.csv",
      member.line,
      "manager",
      `${member.email} is a manager: check that the old site made them one`,
    );
  }
  return "saved";
}

/**
 * The member's old password hash, kept in their credential account so they sign in with
 * their old password (verified as bcrypt, then replaced by Argon2id: password-upgrade.server.ts).
 * A password changed on this site since is never replaced.
 */
async function savePassword(ctx: ImportContext, member: Member): Promise<void> {
  const { tx } = ctx;
  const hash = member.passwordHash;
  if (hash === null) {
    skipRow(
      ctx,
      "passwords",
      "auth_users.csv",
      member.line,
      new Skip("no password (the member can use Forgot password)"),
    );
    return;
  }
  if (!isBcryptHash(hash)) {
    skipRow(
      ctx,
      "passwords",
      "auth_users.csv",
      member.line,
      new Skip("not a bcrypt hash (the member can use Forgot password)"),
    );
    return;
  }
  const [account] = await tx
    .select({ id: accounts.id, password: accounts.password, updatedAt: accounts.updatedAt })
    .from(accounts)
    .where(and(eq(accounts.userId, member.id), eq(accounts.providerId, "credential")));
  if (!account) {
    await tx.insert(accounts).values({
      id: crypto.randomUUID(),
      userId: member.id,
      accountId: member.id,
      providerId: "credential",
      password: hash,
      createdAt: member.createdAt,
      updatedAt: member.passwordStamp,
    });
    count(ctx, "passwords", "imported");
  } else if (account.password === hash) {
    count(ctx, "passwords", "unchanged");
  } else if (account.password && isBcryptHash(account.password) && member.passwordStamp > account.updatedAt) {
    // Still an old hash (never signed in here) and the old site's is newer: the member changed it there.
    await tx
      .update(accounts)
      .set({ password: hash, updatedAt: member.passwordStamp })
      .where(eq(accounts.id, account.id));
    count(ctx, "passwords", "updated");
  } else {
    count(ctx, "passwords", "kept");
  }
}

/** Imports the members: their profiles, keeping their ids, and their passwords. */
export async function importMembers(ctx: ImportContext, users: CsvTable, profileRows: CsvTable): Promise<void> {
  for (const member of readMembers(ctx, users, profileRows)) {
    await letOtherWorkIn();
    try {
      if ((await saveProfile(ctx, member)) === "skipped") continue;
      await savePassword(ctx, member);
    } catch (error) {
      throw new ImportError(
        `auth_users.csv line ${member.line}: the database refused the member (${databaseReason(error)}). Nothing was imported.`,
        { cause: error },
      );
    }
  }
}

/** Which of `ids` are members of the site (imported now or before). */
export async function existingMembers(ctx: ImportContext, ids: string[]): Promise<Set<string>> {
  return existingIds(ctx, profiles.id, ids);
}
