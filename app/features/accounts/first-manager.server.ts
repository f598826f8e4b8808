import crypto from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import type { SignUpForm } from "./auth.form";
import { isManager, rolesWhere } from "~/game/roles";
import { createAccount, type AuthOutcome } from "./accounts.server";
import { database } from "~/platform/db/client.server";
import { profiles } from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { changeRole } from "~/identity/roles.server";

/**
 * The first manager of a new site, made in the browser: while no manager exists, the
 * server prints a set-up link with a random token when it starts. The token lives only in
 * this process's memory, works once, and stops working as soon as any manager exists (made
 * here or with the admin command).
 */
let setupToken: string | undefined;

export async function hasManager(): Promise<boolean> {
  const db = await database();
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(inArray(profiles.role, rolesWhere(isManager)))
    .limit(1);
  return row !== undefined;
}

/** At start-up: a fresh token when the site has no manager yet, else nothing. */
export async function openFirstManagerSetup(): Promise<string | undefined> {
  setupToken = (await hasManager()) ? undefined : crypto.randomBytes(32).toString("base64url");
  return setupToken;
}

/** Compared in constant time: hashing first makes both sides the same length. */
function tokenMatches(given: string): boolean {
  if (!setupToken || !given) return false;
  const digest = (value: string) => crypto.createHash("sha256").update(value).digest();
  return crypto.timingSafeEqual(digest(given), digest(setupToken));
}

/** Whether the set-up page may be shown for this token. */
export async function setupIsOpen(token: string): Promise<boolean> {
  if (!tokenMatches(token)) return false;
  if (await hasManager()) {
    setupToken = undefined;
    return false;
  }
  return true;
}

/**
 * Creates the first manager. The token is taken before any await, so two requests racing
 * with it cannot both succeed; a failure (say, the email is taken) gives it back.
 */
export async function createFirstManager(
  token: string,
  input: z.infer<typeof SignUpForm>,
): Promise<AuthOutcome | { ok: false; status: 404 }> {
  if (!tokenMatches(token)) return { ok: false, status: 404 };
  const claimed = setupToken;
  setupToken = undefined;
  const giveBack = () => {
    setupToken = claimed;
  };
  try {
    if (await hasManager()) return { ok: false, status: 404 };
    const created = await createAccount(input);
    if (!created.ok) {
      giveBack();
      return created;
    }
    const db = await database();
    const [manager] = await db
      .select({ id: profiles.id })
      .from(profiles)
      .where(eq(sql`lower(${profiles.email})`, input.email.toLowerCase()));
    // The new member makes themself manager: one audited entry says it was the set-up link.
    await changeRole(manager!, manager!, "manager", { action: "first_manager.create" });
    logger.info({ managerId: manager!.id }, "first manager created with the set-up link");
    return { ok: true };
  } catch (error) {
    giveBack();
    throw error;
  }
}
