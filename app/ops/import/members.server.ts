import crypto from "node:crypto";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { PERSON_NAME_MAX } from "~/features/accounts/auth.form";
import { CONTACT_NAME_MAX, CONTACT_PHONE_MAX } from "~/features/members/profile.form";
import { isRole, type Role } from "~/game/roles";
import { letOtherWorkIn } from "~/platform/db/holds.server";
import { accounts, profiles, type EmergencyContact } from "~/platform/db/schema";
import { isBcryptHash } from "~/identity/passwords.server";
import { count, databaseReason, flagRow, saveVersioned, skipRow, type ImportContext } from "./context.server";
import type { CsvRow, CsvTable } from "./csv.server";
import { ImportError } from "./format.server";
import {
  isEmail,
  limitedText,
  overLimit,
  parseJson,
  parseTimestamp,
  requiredTimestamp,
  requiredUuid,
  shown,
  Skip,
  tooLong,
} from "./values.server";

/** A member as the export describes them: the auth service's user and their profile row, if any. */
type Member = {
  id: string;
  line: number;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  emergencyContact: EmergencyContact | null;
  createdAt: Date;
  /** The profile's version, compared with the site's updated_at. */
  stamp: Date;
  passwordHash: string | null;
  /** When the password was last set in the old site, as far as the export tells. */
  passwordStamp: Date;
};

function metadataNames(row: CsvRow): { first_name?: unknown; last_name?: unknown } {
  const meta = parseJson(row.cells.raw_user_meta_data ?? null, "raw_user_meta_data");
  return meta !== null && typeof meta === "object" && !Array.isArray(meta)
    ? (meta as { first_name?: unknown; last_name?: unknown })
    : {};
}

/** The emergency contact as the site keeps it, or null (flagged) when the old cell holds something else. */
function emergencyContact(ctx: ImportContext, file: string, row: CsvRow): EmergencyContact | null {
  let value: unknown;
  try {
    value = parseJson(row.cells.emergency_contact ?? null, "emergency_contact");
  } catch (error) {
    if (!(error instanceof Skip)) throw error;
    flagRow(
      ctx,
      "profiles",
      file,
      row.line,
      "emergency contact left out",
      `emergency_contact is not JSON ${shown(row.cells.emergency_contact ?? null)}: left out`,
    );
    return null;
  }
  if (value === null) return null;
  const { name, phone } = (typeof value === "object" && !Array.isArray(value) ? value : {}) as {
    name?: unknown;
    phone?: unknown;
  };
  if ((name === undefined || typeof name === "string") && (phone === undefined || typeof phone === "string")) {
    if (!name && !phone) return null;
    if (tooLong(name ?? null, CONTACT_NAME_MAX) || tooLong(phone ?? null, CONTACT_PHONE_MAX)) {
      const long = tooLong(name ?? null, CONTACT_NAME_MAX)
        ? `its name is too long ${overLimit(name!, CONTACT_NAME_MAX)}`
        : `its phone is too long ${overLimit(phone!, CONTACT_PHONE_MAX)}`;
      flagRow(ctx, "profiles", file, row.line, "emergency contact left out", `emergency_contact: ${long}: left out`);
      return null;
    }
    return { name: name ?? "", phone: phone ?? "" };
  }
  flagRow(
    ctx,
    "profiles",
    file,
    row.line,
    "emergency contact left out",
    "emergency_contact is not a name and a phone: left out",
  );
  return null;
}

/** Reads the export's members: every auth user with a usable id and email, with their profile row. */
function readMembers(ctx: ImportContext, users: CsvTable, profileRows: CsvTable): Member[] {
  const byId = new Map<string, CsvRow>();
  for (const row of profileRows.rows) {
    try {
      const id = requiredUuid(row.cells.id ?? null, "id");
      if (byId.has(id)) throw new Skip("the id appears twice in the file");
      byId.set(id, row);
    } catch (error) {
      if (!(error instanceof Skip)) throw error;
      skipRow(ctx, "profiles", profileRows.file, row.line, error);
    }
  }
  const members: Member[] = [];
  const ids = new Set<string>();
  const emails = new Set<string>();
  for (const row of users.rows) {
    try {
      const id = requiredUuid(row.cells.id ?? null, "id");
      if (ids.has(id)) throw new Skip("the id appears twice in the file");
      // The profile row goes with its user: skipped with them, never reported twice.
      const profile = byId.get(id);
      byId.delete(id);
      // Kept in lower case, as the auth library keeps and looks up every address.
      const email = row.cells.email?.trim().toLowerCase() ?? null;
      if (!isEmail(email)) throw new Skip("bad email", shown(row.cells.email ?? null));
      if (emails.has(email)) throw new Skip("email used by another user in the file", shown(email));
      const createdAt = requiredTimestamp(row.cells.created_at ?? null, "created_at");
      const meta = metadataNames(row);
      const firstName = limitedText(
        (profile?.cells.first_name ?? (typeof meta.first_name === "string" ? meta.first_name : "")).trim(),
        "first_name",
        PERSON_NAME_MAX,
      );
      const lastName = limitedText(
        (profile?.cells.last_name ?? (typeof meta.last_name === "string" ? meta.last_name : "")).trim(),
        "last_name",
        PERSON_NAME_MAX,
      );
      const roleCell = profile?.cells.role?.trim().toLowerCase() ?? null;
      let role: Role = "applicant";
      if (roleCell !== null && isRole(roleCell)) role = roleCell;
      else if (roleCell !== null && profile) {
        flagRow(
          ctx,
          "profiles",
          profileRows.file,
          profile.line,
          "unknown role",
          `unknown role ${shown(profile.cells.role ?? null)}: imported as applicant`,
        );
      }
      const stamp =
        parseTimestamp(profile?.cells.updated_at ?? null) ??
        parseTimestamp(profile?.cells.created_at ?? null) ??
        createdAt;
      ids.add(id);
      emails.add(email);
      members.push({
        id,
        line: row.line,
        email,
        firstName,
        lastName,
        role,
        emergencyContact: profile ? emergencyContact(ctx, profileRows.file, profile) : null,
        createdAt,
        stamp,
        passwordHash: row.cells.encrypted_password ?? null,
        passwordStamp: parseTimestamp(row.cells.updated_at ?? null) ?? createdAt,
      });
    } catch (error) {
      if (!(error instanceof Skip)) throw error;
      skipRow(ctx, "profiles", users.file, row.line, error);
    }
  }
  // A profile row with no auth user has no account to sign in to.
  for (const row of byId.values())
    skipRow(
      ctx,
      "profiles",
      profileRows.file,
      row.line,
      new Skip("missing user", `(no user ${row.cells.id} in ${users.file})`),
    );
  return members;
}

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
  const unique = [...new Set(ids)];
  const found = new Set<string>();
  for (let i = 0; i < unique.length; i += 1000) {
    const rows = await ctx.tx
      .select({ id: profiles.id })
      .from(profiles)
      .where(inArray(profiles.id, unique.slice(i, i + 1000)));
    for (const row of rows) found.add(row.id);
  }
  return found;
}
