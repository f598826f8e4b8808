CREATE TABLE "costume_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"event_id" uuid NOT NULL,
	"file_key" text NOT NULL,
	"thumb_key" text NOT NULL,
	"file_type" text NOT NULL,
	"file_size" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "costume_reminders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"event_id" uuid NOT NULL,
	"days_before" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "costume_reminders_days_before_check" CHECK ("costume_reminders"."days_before" in (21, 15))
);
--> statement-breakpoint
CREATE TABLE "costume_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"event_id" uuid NOT NULL,
	"verdict" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "costume_reviews_verdict_check" CHECK ("costume_reviews"."verdict" in ('approved', 'changes_requested'))
);
--> statement-breakpoint
ALTER TABLE "costume_photos" ADD CONSTRAINT "costume_photos_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costume_photos" ADD CONSTRAINT "costume_photos_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costume_reminders" ADD CONSTRAINT "costume_reminders_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costume_reminders" ADD CONSTRAINT "costume_reminders_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costume_reviews" ADD CONSTRAINT "costume_reviews_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costume_reviews" ADD CONSTRAINT "costume_reviews_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costume_reviews" ADD CONSTRAINT "costume_reviews_reviewed_by_profiles_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "costume_photos_file_key_unique" ON "costume_photos" USING btree ("file_key");--> statement-breakpoint
CREATE UNIQUE INDEX "costume_photos_thumb_key_unique" ON "costume_photos" USING btree ("thumb_key");--> statement-breakpoint
CREATE INDEX "costume_photos_event_id_user_id_idx" ON "costume_photos" USING btree ("event_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "costume_photos_user_id_idx" ON "costume_photos" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "costume_reminders_user_event_days_unique" ON "costume_reminders" USING btree ("user_id","event_id","days_before");--> statement-breakpoint
CREATE INDEX "costume_reminders_event_id_idx" ON "costume_reminders" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "costume_reviews_user_event_unique" ON "costume_reviews" USING btree ("user_id","event_id");--> statement-breakpoint
CREATE INDEX "costume_reviews_event_id_idx" ON "costume_reviews" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "costume_reviews_reviewed_by_idx" ON "costume_reviews" USING btree ("reviewed_by");