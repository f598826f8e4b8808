import { sql, type SQL } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  date,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
// Relative imports: drizzle-kit loads this file without the app's "~" alias.
import { APPLICATION_STATUSES, ROLES, ROLE_PREFERENCES } from "~/game/roles";
import { createdAt, oneOf, updatedAt } from "./columns";

/** The member a row belongs to; their rows go when they do. */
export const ownerId = () =>
  text("user_id")
    .notNull()
    .references(() => profiles.id, { onDelete: "cascade" });

/**
 * What a member search matches: "First Last email". A trigram index covers exactly this
 * expression, so searches by any part of a name or email (or a whole name) use it.
 */
export function memberSearchText(t: { firstName: AnyPgColumn; lastName: AnyPgColumn; email: AnyPgColumn }): SQL {
  return sql`(${t.firstName} || ' ' || ${t.lastName} || ' ' || ${t.email})`;
}

export type EmergencyContact = { name: string; phone: string };

/**
 * One answer of a post-event letter or an application, with the question's wording as the member
 * saw it: rewording or retiring a question later leaves what was written reading as it was.
 */
export type WrittenAnswer = { key: string; question: string; answer: string };

/**
 * One per member account: who they are and what they may do. This is also the
 * auth library's user table, so a profile and its account are created in one
 * transaction and can never exist apart.
 */
export const profiles = pgTable(
  "profiles",
  {
    id: text("id").primaryKey(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email").notNull(),
    role: text("role", { enum: ROLES }).notNull().default("applicant"),
    /** "First Last", kept by the auth library. */
    name: text("name").notNull(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    emergencyContact: jsonb("emergency_contact").$type<EmergencyContact>(),
    /** Set by the auth library once the member has confirmed an authenticator app. */
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
    /** A phone number the member confirmed for codes by text message (when the club has an SMS gateway), in E.164 form. */
    twoFactorPhone: text("two_factor_phone"),
    /** A number being added: it receives only the code that confirms it (app/features/two-factor/phone-factor.server.ts). */
    twoFactorPhonePending: text("two_factor_phone_pending"),
    /** A suspended account cannot sign in until a manager restores it (auth library's admin fields). */
    banned: boolean("banned").notNull().default(false),
    banReason: text("ban_reason"),
    banExpires: timestamp("ban_expires", { withTimezone: true }),
    /** How many times the member asked for a new calendar-feed address: each new one ends the last (calendar-feed.server.ts). */
    calendarFeedGeneration: integer("calendar_feed_generation").notNull().default(0),
    /**
     * How many events the club's old site counted for the member (its characters.events_attended),
     * taken by the import, and the club's day it was taken: Events Survived starts from it and adds
     * the events attended here from that day on (profiles.server.ts: eventsSurvived). Null for members
     * the old site never knew.
     */
    oldSiteEventsAttended: integer("old_site_events_attended"),
    oldSiteEventsAsOf: date("old_site_events_as_of", { mode: "string" }),
    /** The member's choices of the managers' messages (features/messages): club news, and messages about an event they hold a place at. */
    newsEmails: boolean("news_emails").notNull().default(true),
    eventEmails: boolean("event_emails").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("profiles_role_check", oneOf(t.role, ROLES)),
    check(
      "profiles_old_site_events_check",
      sql`(${t.oldSiteEventsAttended} is null and ${t.oldSiteEventsAsOf} is null) or (${t.oldSiteEventsAttended} >= 0 and ${t.oldSiteEventsAsOf} is not null)`,
    ),
    uniqueIndex("profiles_email_unique").on(sql`lower(${t.email})`),
    index("profiles_role_first_name_idx").on(t.role, t.firstName),
    index("profiles_last_first_name_idx").on(t.lastName, t.firstName),
    index("profiles_search_trgm_idx").using("gin", sql`${memberSearchText(t)} gin_trgm_ops`),
  ],
);

/** A player application; at most one per member. */
export const applications = pgTable(
  "applications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email").notNull(),
    status: text("status", { enum: APPLICATION_STATUSES }).notNull().default("pending"),
    createdAt: createdAt(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decidedBy: text("decided_by").references(() => profiles.id, { onDelete: "set null" }),
    discordTag: text("discord_tag").notNull(),
    rolePreference: text("role_preference", { enum: ROLE_PREFERENCES }).notNull(),
    /** The written questions as the member was asked them, each with its answer, in the order asked. */
    answers: jsonb("answers").$type<WrittenAnswer[]>().notNull(),
  },
  (t) => [
    uniqueIndex("applications_user_id_unique").on(t.userId),
    // Newest-first lists order by (created_at desc, id desc); the index matches that order exactly,
    // nulls first as PostgreSQL sorts DESC, so a page is read straight from it with no sort.
    index("applications_created_at_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The Applications tab lists one status at a time, newest first, and counts each status.
    index("applications_status_created_at_idx").on(t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("applications_decided_by_idx").on(t.decidedBy),
    check("applications_status_check", oneOf(t.status, APPLICATION_STATUSES)),
    check("applications_role_preference_check", oneOf(t.rolePreference, ROLE_PREFERENCES)),
  ],
);

/** A member's character; at most one per member. */
export const characters = pgTable(
  "characters",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    characterName: text("character_name").notNull(),
    backstory: text("backstory").notNull(),
    /** Names from the club's list of factions and jobs (checked when saved, not here: a manager may rename or retire one). */
    faction: text("faction").notNull(),
    job: text("job").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("characters_user_id_unique").on(t.userId),
    index("characters_character_name_idx").on(t.characterName),
    index("characters_character_name_trgm_idx").using("gin", t.characterName.op("gin_trgm_ops")),
    // A letter's recipient, typed in any case, is matched to a character by this.
    index("characters_lower_character_name_idx").on(sql`lower(${t.characterName})`, t.createdAt),
  ],
);
