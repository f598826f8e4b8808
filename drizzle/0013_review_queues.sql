CREATE TABLE "review_queue" (
	"kind" text NOT NULL,
	"entry_id" text NOT NULL,
	"user_id" text NOT NULL,
	"status" text NOT NULL,
	"assignee_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_queue_pk" PRIMARY KEY("kind","entry_id"),
	CONSTRAINT "review_queue_kind_check" CHECK ("review_queue"."kind" in ('pel', 'order', 'research', 'letter', 'costume')),
	CONSTRAINT "review_queue_status_check" CHECK ("review_queue"."status" in ('new', 'in_progress', 'answered'))
);
--> statement-breakpoint
CREATE TABLE "staff_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"entry_id" text NOT NULL,
	"user_id" text NOT NULL,
	"author_id" text,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_replies_kind_check" CHECK ("staff_replies"."kind" in ('pel', 'order', 'research')),
	CONSTRAINT "staff_replies_body_check" CHECK (length("staff_replies"."body") > 0)
);
--> statement-breakpoint
ALTER TABLE "review_queue" ADD CONSTRAINT "review_queue_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_queue" ADD CONSTRAINT "review_queue_assignee_id_profiles_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_replies" ADD CONSTRAINT "staff_replies_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_replies" ADD CONSTRAINT "staff_replies_author_id_profiles_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_queue_kind_status_idx" ON "review_queue" USING btree ("kind","status");--> statement-breakpoint
CREATE INDEX "review_queue_assignee_id_idx" ON "review_queue" USING btree ("assignee_id");--> statement-breakpoint
CREATE INDEX "review_queue_user_id_idx" ON "review_queue" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "staff_replies_entry_idx" ON "staff_replies" USING btree ("kind","entry_id","created_at");--> statement-breakpoint
CREATE INDEX "staff_replies_user_id_idx" ON "staff_replies" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "staff_replies_author_id_idx" ON "staff_replies" USING btree ("author_id");--> statement-breakpoint
-- The Tools page keeps how many entries of each kind are not yet answered: announce writes to
-- the queue and to costume photos (the other kinds' tables announce theirs since 0004).
CREATE TRIGGER review_queue_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "review_queue" FOR EACH STATEMENT EXECUTE FUNCTION hopewell_announce_change();
--> statement-breakpoint
CREATE TRIGGER costume_photos_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "costume_photos" FOR EACH STATEMENT EXECUTE FUNCTION hopewell_announce_change();
