import { and, desc, eq, max } from "drizzle-orm";
import type { z } from "zod";
import { CLUB_FACT_MESSAGES } from "./club-facts.form";
import { changesOf, type FactChanges } from "./changes";
import { KINDS, type ClubFacts } from "./kinds";
import { formattedTextHtml } from "~/lib/formatted-text.server";
import { audit } from "~/platform/audit.server";
import { ChangeAwareCache, wroteTo } from "~/platform/db/changes.server";
import { database, type Database, type Transaction } from "~/platform/db/client.server";
import { isUniqueViolation } from "~/platform/db/constraint-errors.server";
import { clubFactVersions, profiles, type ClubFactKind } from "~/platform/db/schema";

/**
 * The club's own facts, which managers change in the browser: each kind is a whole list, saved
 * as a new version every time, so the history is every list the site has shown and going back is
 * saving an old one again. Until a kind is first saved the site shows its starting list, today's
 * built-in one, so a club that changes nothing sees what it always saw.
 */

/** A version of a kind as the site shows it; version 0 is the starting list, never saved. */
export type FactsVersion<K extends ClubFactKind> = { version: number; content: ClubFacts[K] };

const TABLE = "club_fact_versions";

/** Read on every public page that shows them: kept until a manager saves, on every instance. */
const kept = new ChangeAwareCache<FactsVersion<ClubFactKind>>({
  name: "club facts",
  tables: [TABLE],
  maxAgeMs: 10 * 60_000,
  maxEntries: 20,
});

/** The version of `kind` the site shows now. */
export async function currentFacts<K extends ClubFactKind>(kind: K): Promise<FactsVersion<K>> {
  return kept.get(kind, async () => {
    const db = await database();
    const [row] = await db
      .select({ version: clubFactVersions.version, content: clubFactVersions.content })
      .from(clubFactVersions)
      .where(eq(clubFactVersions.kind, kind))
      .orderBy(desc(clubFactVersions.version))
      .limit(1);
    return row
      ? { version: row.version, content: row.content as ClubFacts[K] }
      : { version: 0, content: KINDS[kind].starting() };
  }) as Promise<FactsVersion<K>>;
}

export type SaveOutcome =
  | { ok: true; version: number }
  | { ok: false; reason: "invalid"; issues: z.core.$ZodIssue[] }
  | { ok: false; reason: "changed-meanwhile" | "no-such-version"; message: string };

/**
 * Saves `content` as the newest version of `kind`, if the version the manager edited
 * (`basedOn`) is still the newest: two managers editing at once do not overwrite each other
 * unseen. One audit row says who, and the list before and after.
 */
export async function saveFacts<K extends ClubFactKind>(
  kind: K,
  content: unknown,
  actor: { id: string },
  basedOn: number,
  restoredFrom: number | null = null,
): Promise<SaveOutcome> {
  const parsed = KINDS[kind].schema.safeParse(content);
  if (!parsed.success) return { ok: false, reason: "invalid", issues: parsed.error.issues };
  const db = await database();
  try {
    const outcome = await db.transaction(async (tx): Promise<SaveOutcome> => {
      const [newest] = await tx
        .select({ version: max(clubFactVersions.version) })
        .from(clubFactVersions)
        .where(eq(clubFactVersions.kind, kind));
      const current = newest?.version ?? 0;
      if (current !== basedOn)
        return { ok: false, reason: "changed-meanwhile", message: CLUB_FACT_MESSAGES.changedMeanwhile };
      const before = current === 0 ? KINDS[kind].starting() : await contentOf(tx, kind, current);
      const version = current + 1;
      // A second save based on the same version meets the primary key: it is "changed meanwhile".
      await tx
        .insert(clubFactVersions)
        .values({ kind, version, content: parsed.data, changedBy: actor.id, restoredFrom });
      await audit(tx, {
        actorId: actor.id,
        action: "club_facts.save",
        details: { kind, version, restoredFrom, before, after: parsed.data },
      });
      return { ok: true, version };
    });
    if (outcome.ok) wroteTo(TABLE);
    return outcome;
  } catch (error) {
    if (isUniqueViolation(error))
      return { ok: false, reason: "changed-meanwhile", message: CLUB_FACT_MESSAGES.changedMeanwhile };
    throw error;
  }
}

async function contentOf(db: Database | Transaction, kind: ClubFactKind, version: number) {
  const [row] = await db
    .select({ content: clubFactVersions.content })
    .from(clubFactVersions)
    .where(and(eq(clubFactVersions.kind, kind), eq(clubFactVersions.version, version)));
  return row?.content ?? null;
}

/** Brings back an earlier version of `kind` (0: the starting list) as a new version. */
export async function restoreFacts(kind: ClubFactKind, version: number, actor: { id: string }, basedOn: number) {
  const content = version === 0 ? KINDS[kind].starting() : await contentOf(await database(), kind, version);
  if (content === null)
    return { ok: false, reason: "no-such-version", message: CLUB_FACT_MESSAGES.noSuchVersion } as const;
  return saveFacts(kind, content, actor, basedOn, version);
}

export const HISTORY_SHOWN = 20;

/** The newest versions of `kind` (who saved each, and when), newest first. */
export async function factsHistory(kind: ClubFactKind) {
  const db = await database();
  return (
    db
      .select({
        version: clubFactVersions.version,
        createdAt: clubFactVersions.createdAt,
        restoredFrom: clubFactVersions.restoredFrom,
        content: clubFactVersions.content,
        firstName: profiles.firstName,
        lastName: profiles.lastName,
      })
      .from(clubFactVersions)
      .leftJoin(profiles, eq(profiles.id, clubFactVersions.changedBy))
      .where(eq(clubFactVersions.kind, kind))
      .orderBy(desc(clubFactVersions.version))
      // One more than is shown: what the oldest shown one changed is told against the one before.
      .limit(HISTORY_SHOWN + 1)
  );
}

/** An FAQ entry as a page shows it: its answer made into HTML (the safe subset). */
export type ShownFaqEntry = { id: string; question: string; answerHtml: string };

/** The answers made into HTML once for each list read, not on every visit to the page. */
const shownLists = new WeakMap<ClubFacts["faq"], ShownFaqEntry[]>();

/** The FAQ as the home page shows it. */
export async function faqAsShown(): Promise<ShownFaqEntry[]> {
  const { content } = await currentFacts("faq");
  let shown = shownLists.get(content);
  if (!shown) {
    shown = content.map(({ id, question, answer }) => ({ id, question, answerHtml: formattedTextHtml(answer) }));
    shownLists.set(content, shown);
  }
  return shown;
}

/** The welcome story made into HTML once for each text read. */
let shownWelcome: { source: string; html: string } | undefined;

/** The home page's welcome story as it shows it. */
export async function welcomeAsShown(): Promise<string> {
  const { content } = await currentFacts("welcome");
  if (shownWelcome?.source !== content) shownWelcome = { source: content, html: formattedTextHtml(content) };
  return shownWelcome.html;
}

/**
 * A saved version as the history lists it: when, by whom, how big, what it brought back, and
 * what it changed from the version before (lines of the list added and removed, or only moved).
 */
export type HistoryRow = {
  version: number;
  at: string;
  by: string;
  restoredFrom: number | null;
  size: string;
  changes: FactChanges | null;
};

/** The history of `kind`, as its page lists it. */
export async function historyOf(kind: ClubFactKind): Promise<HistoryRow[]> {
  const rows = await factsHistory(kind);
  return rows.slice(0, HISTORY_SHOWN).map((row, n) => {
    const before = rows[n + 1]?.content ?? (row.version === 1 ? KINDS[kind].starting() : undefined);
    return {
      version: row.version,
      at: row.createdAt.toISOString(),
      by: row.firstName ? `${row.firstName} ${row.lastName}` : "a former member",
      restoredFrom: row.restoredFrom,
      size: (KINDS[kind].size as (content: unknown) => string)(row.content),
      changes: before === undefined ? null : changesOf(kind, before, row.content),
    };
  });
}
