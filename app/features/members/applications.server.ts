import { and, count, desc, eq, sql } from "drizzle-orm";
import { applicationFormFor } from "./application.form";
import { writtenAnswers } from "~/features/club-facts/questions/questions.form";
import { questionsShown } from "~/features/club-facts/questions/questions.server";
import { APPLICATION_STATUSES, type ApplicationStatus, type RolePreference } from "~/game/roles";
import type { SessionUser } from "~/lib/navigation";
import { audit } from "~/platform/audit.server";
import { database } from "~/platform/db/client.server";
import { applications, profiles, type WrittenAnswer } from "~/platform/db/schema";
import { queueDiscordPost } from "~/platform/discord/discord.server";
import { acceptanceEmail } from "~/platform/mail/templates.server";
import { queueEmail } from "~/platform/outbox/outbox.server";
import { checkForm, readForm, type ParsedForm } from "~/web/forms/kernel";

export type Application = typeof applications.$inferSelect;

export async function getApplication(userId: string): Promise<Application | undefined> {
  const db = await database();
  const [row] = await db.select().from(applications).where(eq(applications.userId, userId));
  return row;
}

/** An application as it is kept: its written answers with the questions' wording as the member was asked them. */
export type ApplicationInput = { discordTag: string; rolePreference: RolePreference; answers: WrittenAnswer[] };

/** The posted application, checked against the questions its form asked (the version it was opened at). */
export async function readApplicationForm(request: Request): Promise<ParsedForm<ApplicationInput>> {
  const fields = await readForm(request);
  const questions = await questionsShown("application-questions", fields.questionsVersion);
  const form = checkForm(applicationFormFor(questions), fields);
  if (!form.ok) return form;
  const { discordTag, rolePreference } = form.data;
  return { ...form, data: { discordTag, rolePreference, answers: writtenAnswers(questions, form.data) } };
}

/**
 * Saves the member's one application as pending. A second submission (a double click,
 * a replayed form) changes nothing: the first stands, whatever its status now.
 */
export async function submitApplication(user: SessionUser, input: ApplicationInput): Promise<{ created: boolean }> {
  const db = await database();
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(applications)
      .values({
        ...input,
        userId: user.id,
        firstName: user.firstName,
        lastName: user.lastName,
        email: user.email,
        status: "pending",
      })
      .onConflictDoNothing({ target: applications.userId })
      .returning({ id: applications.id });
    if (inserted.length === 0) return { created: false };
    await queueDiscordPost(
      tx,
      `📜 A new application has come in: ${user.firstName} ${user.lastName.slice(0, 1)}. hopes to join Hopewell as ${input.rolePreference === "cast" ? "cast" : "a player"}.`,
    );
    return { created: true };
  });
}

export const APPLICATIONS_PAGE_SIZE = 20;

/** What the Applications tab can show: one status, or every application. */
export const APPLICATION_FILTERS = [...APPLICATION_STATUSES, "all"] as const;
export type ApplicationFilter = (typeof APPLICATION_FILTERS)[number];

export function isApplicationFilter(value: string | null): value is ApplicationFilter {
  return (APPLICATION_FILTERS as readonly (string | null)[]).includes(value);
}

export type ApplicationCounts = Record<ApplicationFilter, number>;

/**
 * Applications of one status (or all), newest first, a page at a time, with how many there
 * are of each status so the tab can show its filter's counts. The (status, created_at, id)
 * index serves both the filtered page and the counts.
 */
export async function listApplications({
  status = "pending",
  page = 0,
}: { status?: ApplicationFilter; page?: number } = {}): Promise<{
  applications: Application[];
  total: number;
  counts: ApplicationCounts;
}> {
  const db = await database();
  const where = status === "all" ? undefined : eq(applications.status, status);
  const [rows, grouped] = await Promise.all([
    db
      .select()
      .from(applications)
      .where(where)
      .orderBy(desc(applications.createdAt), desc(applications.id))
      .limit(APPLICATIONS_PAGE_SIZE)
      .offset(page * APPLICATIONS_PAGE_SIZE),
    db.select({ status: applications.status, n: count() }).from(applications).groupBy(applications.status),
  ]);
  const counts: ApplicationCounts = { pending: 0, accepted: 0, rejected: 0, all: 0 };
  for (const { status: s, n } of grouped) {
    counts[s] = n;
    counts.all += n;
  }
  return { applications: rows, total: counts[status], counts };
}

/** The applicant's name and the application's status, for the confirmation step before a decision. */
export async function applicationForDecision(
  applicationId: string,
): Promise<{ name: string; status: ApplicationStatus } | undefined> {
  const db = await database();
  const [row] = await db
    .select({ firstName: applications.firstName, lastName: applications.lastName, status: applications.status })
    .from(applications)
    .where(eq(applications.id, applicationId));
  return row ? { name: `${row.firstName} ${row.lastName}`, status: row.status } : undefined;
}

export type Decision = "accepted" | "rejected";
export type DecisionOutcome =
  | { outcome: "decided"; name: string; email: string }
  | { outcome: "already-decided"; status: string }
  | { outcome: "not-found" };

/**
 * Decides a pending application in one transaction. Accepting makes the applicant
 * cast or a player, as they asked, and queues the acceptance email; rejecting sends
 * nothing. Only a pending application can be decided, so when two managers act at
 * once the first decision stands and the second is told.
 */
export async function decideApplication(
  actor: SessionUser,
  applicationId: string,
  decision: Decision,
): Promise<DecisionOutcome> {
  const db = await database();
  return db.transaction(async (tx) => {
    const [decided] = await tx
      .update(applications)
      .set({ status: decision, decidedAt: sql`now()`, decidedBy: actor.id })
      .where(and(eq(applications.id, applicationId), eq(applications.status, "pending")))
      .returning({
        userId: applications.userId,
        rolePreference: applications.rolePreference,
        firstName: applications.firstName,
        lastName: applications.lastName,
        email: applications.email,
      });
    if (!decided) {
      const [existing] = await tx
        .select({ status: applications.status })
        .from(applications)
        .where(eq(applications.id, applicationId));
      return existing ? { outcome: "already-decided", status: existing.status } : { outcome: "not-found" };
    }
    if (decision === "accepted") {
      // Only an applicant is promoted: someone already made cast or manager keeps that role.
      await tx
        .update(profiles)
        .set({ role: decided.rolePreference === "cast" ? "cast" : "player", updatedAt: sql`now()` })
        .where(and(eq(profiles.id, decided.userId), eq(profiles.role, "applicant")));
      await queueEmail(
        tx,
        acceptanceEmail({ to: decided.email, firstName: decided.firstName, asCast: decided.rolePreference === "cast" }),
      );
    }
    await audit(tx, {
      actorId: actor.id,
      action: "application.decide",
      subjectId: decided.userId,
      details: { applicationId, decision },
    });
    return { outcome: "decided", name: `${decided.firstName} ${decided.lastName}`, email: decided.email };
  });
}
