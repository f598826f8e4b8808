import { sql } from "drizzle-orm";
import { check, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, oneOf } from "./columns";
import { profiles } from "./schema-members";

/** The club's own facts a manager may change in the browser, each kept as a whole list. */
export const CLUB_FACT_KINDS = [
  "faq",
  "welcome",
  "merchant",
  "cabins",
  "pel-questions",
  "application-questions",
  "factions",
  "locations",
  "rulebook",
] as const;
export type ClubFactKind = (typeof CLUB_FACT_KINDS)[number];

/**
 * Every version of each of the club's facts (the FAQ, and later the price list, the cabins, the
 * questions), the whole list in each: the newest is what the site shows, the older ones are the
 * history a manager can go back to. A kind with no row shows the site's built-in starting list.
 */
export const clubFactVersions = pgTable(
  "club_fact_versions",
  {
    kind: text("kind", { enum: CLUB_FACT_KINDS }).notNull(),
    version: integer("version").notNull(),
    content: jsonb("content").notNull(),
    /** Who saved it; null once their account is gone. */
    changedBy: text("changed_by").references(() => profiles.id, { onDelete: "set null" }),
    /** Set when the version is an earlier one brought back: the version it restores. */
    restoredFrom: integer("restored_from"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.version] }),
    check("club_fact_versions_kind_check", oneOf(t.kind, CLUB_FACT_KINDS)),
    check("club_fact_versions_version_check", sql`${t.version} > 0`),
  ],
);
