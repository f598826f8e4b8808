CREATE TABLE "member_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"file_key" text,
	"file_size" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"ready_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "member_exports_status_check" CHECK ("member_exports"."status" in ('pending', 'building', 'ready', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "member_exports" ADD CONSTRAINT "member_exports_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_exports_user_id_created_at_idx" ON "member_exports" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "member_exports_unfinished_idx" ON "member_exports" USING btree ("created_at") WHERE "member_exports"."status" in ('pending', 'building');--> statement-breakpoint
CREATE INDEX "member_exports_expires_at_idx" ON "member_exports" USING btree ("expires_at");