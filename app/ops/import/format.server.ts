/**
 * The old hosted backend's export, as the import reads it: one CSV file per table, named
 * after it, with a header row of the old column names (docs/product.md#records), plus the auth
 * service's users and the research bucket's files under storage/research/<user id>/.
 */

/** A problem with the export itself (a missing file, a wrong header, malformed CSV): nothing is imported. */
export class ImportError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ImportError";
  }
}

export type ExportFile = {
  /** The file's name in the export folder. */
  file: string;
  /** Columns the header must have. */
  required: readonly string[];
  /** Columns the header may also have (a fuller export); any other column is refused. */
  optional: readonly string[];
};

export const APPLICATION_ANSWERS = [
  "larp_experience",
  "in_character_preference",
  "physical_activity_acknowledgment",
  "ic_oc_separation",
  "phobia_handling",
  "non_breaking_exit",
  "plot_engagement",
  "larp_types",
  "larp_priorities",
  "physical_roleplay_comfort",
  "character_death_stance",
  "cheating_response",
  "plot_discomfort_handling",
  "complaint_handling",
  "referral_source",
] as const;

export const PEL_ANSWERS = [
  "character_name",
  "scariness",
  "favorite_moments",
  "enjoyment",
  "notable_npcs",
  "notable_pcs",
  "improvements",
  "activities",
  "goals",
  "jobs",
  "drugs",
  "follow_up",
] as const;

/** Every file of an export, in the order the import reads them (a row's owner before the row). */
export const EXPORT_FILES = {
  auth_users: {
    file: "auth_users.csv",
    required: ["id", "email", "encrypted_password", "created_at", "raw_user_meta_data"],
    optional: ["updated_at"],
  },
  profiles: {
    file: "profiles.csv",
    required: ["id", "first_name", "last_name", "email", "role", "emergency_contact"],
    optional: ["created_at", "updated_at"],
  },
  events: {
    file: "events.csv",
    required: ["id", "title", "date", "status", "stripe"],
    optional: ["created_at", "updated_at"],
  },
  applications: {
    file: "applications.csv",
    required: [
      "id",
      "user_id",
      "first_name",
      "last_name",
      "email",
      "status",
      "created_at",
      "discord_tag",
      "role_preference",
      ...APPLICATION_ANSWERS,
    ],
    optional: ["updated_at"],
  },
  characters: {
    file: "characters.csv",
    required: ["id", "user_id", "character_name", "backstory", "faction", "job"],
    // events_attended: the old site's count, kept as the start of the member's Events Survived (old-site-events.server.ts).
    optional: ["events_attended", "created_at", "updated_at"],
  },
  pels: { file: "pels.csv", required: ["user_id", "event_id", ...PEL_ANSWERS, "created_at"], optional: ["id"] },
  merchant_orders: {
    file: "merchant_orders.csv",
    required: ["user_id", "event_id", "items", "total_price", "created_at"],
    optional: ["id"],
  },
  event_attendance: {
    file: "event_attendance.csv",
    required: ["user_id", "event_id", "cabin", "payment_status", "character_name"],
    optional: ["id", "created_at"],
  },
  research: {
    file: "research.csv",
    required: ["user_id", "event_id", "sources", "research", "file_url", "created_at"],
    optional: ["id"],
  },
  letters: { file: "letters.csv", required: ["user_id", "recipient", "body", "created_at"], optional: ["id"] },
} as const satisfies Record<string, ExportFile>;

export type ExportTable = keyof typeof EXPORT_FILES;

/** Where the research bucket's files are in the export. */
export const RESEARCH_FILES_DIR = ["storage", "research"] as const;
