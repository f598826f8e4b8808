// The export's members as the import reads them (auth_users.csv and profiles.csv): each user with a
// usable id and email, with their profile row; what cannot be used is skipped or flagged.
import { PERSON_NAME_MAX } from "~/features/accounts/auth.form";
import { CONTACT_NAME_MAX, CONTACT_PHONE_MAX } from "~/features/members/profile.form";
import { isRole, type Role } from "~/game/roles";
import type { EmergencyContact } from "~/platform/db/schema";
import { flagRow, skipRow, type ImportContext } from "./context.server";
import type { CsvRow, CsvTable } from "./csv.server";
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
export type Member = {
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
  const leftOut = (why: string) => {
    flagRow(ctx, "profiles", file, row.line, "emergency contact left out", `emergency_contact${why}: left out`);
    return null;
  };
  let value: unknown;
  try {
    value = parseJson(row.cells.emergency_contact ?? null, "emergency_contact");
  } catch (error) {
    if (!(error instanceof Skip)) throw error;
    return leftOut(` is not JSON ${shown(row.cells.emergency_contact ?? null)}`);
  }
  if (value === null) return null;
  const { name, phone } = (typeof value === "object" && !Array.isArray(value) ? value : {}) as {
    name?: unknown;
    phone?: unknown;
  };
  if ((name === undefined || typeof name === "string") && (phone === undefined || typeof phone === "string")) {
    if (!name && !phone) return null;
    if (tooLong(name ?? null, CONTACT_NAME_MAX))
      return leftOut(`: its name is too long ${overLimit(name!, CONTACT_NAME_MAX)}`);
    if (tooLong(phone ?? null, CONTACT_PHONE_MAX))
      return leftOut(`: its phone is too long ${overLimit(phone!, CONTACT_PHONE_MAX)}`);
    return { name: name ?? "", phone: phone ?? "" };
  }
  return leftOut(" is not a name and a phone");
}

/** Reads the export's members: every auth user with a usable id and email, with their profile row. */
export function readMembers(ctx: ImportContext, users: CsvTable, profileRows: CsvTable): Member[] {
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
