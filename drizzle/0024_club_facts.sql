CREATE TABLE "club_fact_versions" (
	"kind" text NOT NULL,
	"version" integer NOT NULL,
	"content" jsonb NOT NULL,
	"changed_by" text,
	"restored_from" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "club_fact_versions_kind_version_pk" PRIMARY KEY("kind","version"),
	CONSTRAINT "club_fact_versions_kind_check" CHECK ("club_fact_versions"."kind" in ('faq')),
	CONSTRAINT "club_fact_versions_version_check" CHECK ("club_fact_versions"."version" > 0)
);
--> statement-breakpoint
ALTER TABLE "club_fact_versions" ADD CONSTRAINT "club_fact_versions_changed_by_profiles_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- The public pages and every instance keep the club's facts in memory until a new version is
-- saved: announce writes to them like the other tables' (0002).
CREATE TRIGGER club_fact_versions_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "club_fact_versions" FOR EACH STATEMENT EXECUTE FUNCTION hopewell_announce_change();
