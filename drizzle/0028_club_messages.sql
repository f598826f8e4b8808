CREATE TABLE "club_message_recipients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"reason" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "club_message_recipients_status_check" CHECK ("club_message_recipients"."status" in ('queued', 'sending', 'sent', 'failed', 'interrupted', 'left-out'))
);
--> statement-breakpoint
CREATE TABLE "club_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_key" uuid NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"audience" text NOT NULL,
	"event_id" uuid,
	"audience_label" text NOT NULL,
	"choice" text NOT NULL,
	"discord" boolean DEFAULT false NOT NULL,
	"sent_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "club_messages_audience_check" CHECK ("club_messages"."audience" in ('all', 'players', 'cast', 'applicants', 'paid', 'attendance', 'no-pel', 'no-costume')),
	CONSTRAINT "club_messages_choice_check" CHECK ("club_messages"."choice" in ('news', 'events'))
);
--> statement-breakpoint
ALTER TABLE "outbox" DROP CONSTRAINT "outbox_kind_check";--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "news_emails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "event_emails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "club_message_recipients" ADD CONSTRAINT "club_message_recipients_message_id_club_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."club_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "club_message_recipients" ADD CONSTRAINT "club_message_recipients_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "club_messages" ADD CONSTRAINT "club_messages_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "club_messages" ADD CONSTRAINT "club_messages_sent_by_profiles_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "club_message_recipients_message_user_unique" ON "club_message_recipients" USING btree ("message_id","user_id");--> statement-breakpoint
CREATE INDEX "club_message_recipients_user_id_idx" ON "club_message_recipients" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "club_messages_submission_key_unique" ON "club_messages" USING btree ("submission_key");--> statement-breakpoint
CREATE INDEX "club_messages_created_at_idx" ON "club_messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "club_messages_event_id_idx" ON "club_messages" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "club_messages_sent_by_idx" ON "club_messages" USING btree ("sent_by");--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_kind_check" CHECK ("outbox"."kind" in ('email', 'discord', 'sms', 'club-message'));