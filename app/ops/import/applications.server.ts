import { eq, or } from "drizzle-orm";
import { DISCORD_TAG_MAX } from "~/features/members/application.form";
import { EMAIL_MAX, PERSON_NAME_MAX } from "~/features/accounts/auth.form";
import { APPLICATION_ANSWER_MAX, APPLICATION_TEXT_QUESTIONS } from "~/game/application";
import { APPLICATION_STATUSES, ROLE_PREFERENCES, type ApplicationStatus, type RolePreference } from "~/game/roles";
import { applications } from "~/platform/db/schema";
import { eachRow, saveVersioned, type ImportContext } from "./context.server";
import type { CsvTable } from "./csv.server";
import { type APPLICATION_ANSWERS } from "./format.server";
import { referencesOf } from "./owners.server";
import { limitedText, requiredTimestamp, requiredUuid, shown, Skip } from "./values.server";

/** Each of the old site's answer columns, and the built-in question it answered. */
const ANSWER_FIELDS = {
  larp_experience: "larpExperience",
  in_character_preference: "inCharacterPreference",
  physical_activity_acknowledgment: "physicalActivityAcknowledgment",
  ic_oc_separation: "icOcSeparation",
  phobia_handling: "phobiaHandling",
  non_breaking_exit: "nonBreakingExit",
  plot_engagement: "plotEngagement",
  larp_types: "larpTypes",
  larp_priorities: "larpPriorities",
  physical_roleplay_comfort: "physicalRoleplayComfort",
  character_death_stance: "characterDeathStance",
  cheating_response: "cheatingResponse",
  plot_discomfort_handling: "plotDiscomfortHandling",
  complaint_handling: "complaintHandling",
  referral_source: "referralSource",
} as const satisfies Record<(typeof APPLICATION_ANSWERS)[number], (typeof APPLICATION_TEXT_QUESTIONS)[number]["key"]>;

function oneOf<T extends string>(list: readonly T[], cell: string | null, column: string): T {
  const value = cell?.trim().toLowerCase() ?? null;
  if (value === null || !(list as readonly string[]).includes(value)) throw new Skip(`unknown ${column}`, shown(cell));
  return value as T;
}

/**
 * Imports the applications (one per member). A member's application is compared by when it
 * was made: one made on this site since the old one is kept, and a decision taken here stays.
 */
export async function importApplications(ctx: ImportContext, csv: CsvTable): Promise<void> {
  const refs = await referencesOf(ctx, csv);
  await eachRow(ctx, "applications", csv, async (row) => {
    const id = requiredUuid(row.cells.id ?? null, "id");
    const userId = refs.member(row);
    const status = oneOf<ApplicationStatus>(APPLICATION_STATUSES, row.cells.status ?? null, "status");
    const rolePreference = oneOf<RolePreference>(
      ROLE_PREFERENCES,
      row.cells.role_preference ?? null,
      "role_preference",
    );
    const createdAt = requiredTimestamp(row.cells.created_at ?? null, "created_at");
    const byKey = new Map<string, string>(
      Object.entries(ANSWER_FIELDS).map(([column, key]) => [
        key,
        limitedText(row.cells[column] ?? null, column, APPLICATION_ANSWER_MAX),
      ]),
    );
    // The old site asked the built-in questions: each answer is kept with their wording.
    const answers = APPLICATION_TEXT_QUESTIONS.map((q) => ({
      key: q.key,
      question: q.label,
      answer: byKey.get(q.key) ?? "",
    }));
    const values = {
      userId,
      firstName: limitedText(row.cells.first_name ?? null, "first_name", PERSON_NAME_MAX),
      lastName: limitedText(row.cells.last_name ?? null, "last_name", PERSON_NAME_MAX),
      email: limitedText(row.cells.email ?? null, "email", EMAIL_MAX),
      status,
      rolePreference,
      discordTag: limitedText(row.cells.discord_tag ?? null, "discord_tag", DISCORD_TAG_MAX),
      createdAt,
      answers,
    };
    const found = await ctx.tx
      .select({ id: applications.id, userId: applications.userId, stamp: applications.createdAt })
      .from(applications)
      .where(or(eq(applications.id, id), eq(applications.userId, userId)));
    if (found.some((other) => other.id === id && other.userId !== userId))
      throw new Skip("the id belongs to another member's application");
    const existing = found.find((other) => other.userId === userId);
    return saveVersioned(existing, createdAt, {
      insert: () => ctx.tx.insert(applications).values({ id, ...values }),
      update: () => ctx.tx.update(applications).set(values).where(eq(applications.id, existing!.id)),
    });
  });
}
