CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"password" text,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"discord_tag" text NOT NULL,
	"role_preference" text NOT NULL,
	"larp_experience" text NOT NULL,
	"in_character_preference" text NOT NULL,
	"physical_activity_acknowledgment" text NOT NULL,
	"ic_oc_separation" text NOT NULL,
	"phobia_handling" text NOT NULL,
	"non_breaking_exit" text NOT NULL,
	"plot_engagement" text NOT NULL,
	"larp_types" text NOT NULL,
	"larp_priorities" text NOT NULL,
	"physical_roleplay_comfort" text NOT NULL,
	"character_death_stance" text NOT NULL,
	"cheating_response" text NOT NULL,
	"plot_discomfort_handling" text NOT NULL,
	"complaint_handling" text NOT NULL,
	"referral_source" text NOT NULL,
	CONSTRAINT "applications_status_check" CHECK ("applications"."status" in ('pending', 'accepted', 'rejected')),
	CONSTRAINT "applications_role_preference_check" CHECK ("applications"."role_preference" in ('player', 'cast'))
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_id" text,
	"action" text NOT NULL,
	"subject_id" text,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "characters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"character_name" text NOT NULL,
	"backstory" text NOT NULL,
	"faction" text NOT NULL,
	"job" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "characters_faction_check" CHECK ("characters"."faction" in ('US Survey Corp', 'Northwest Mineral Corporation', 'Union Research Initiative', 'Homesteader')),
	CONSTRAINT "characters_job_check" CHECK ("characters"."job" in ('Agrarian', 'Apothecary', 'Barkeep', 'Blacksmith', 'Carpenter', 'Gunsmith', 'Hunter / Trapper', 'Merchant', 'Miner', 'Performer', 'Soldier', 'Natural Scientist')),
	CONSTRAINT "characters_soldier_faction_check" CHECK ("characters"."job" <> 'Soldier' or "characters"."faction" = 'US Survey Corp'),
	CONSTRAINT "characters_natural_scientist_faction_check" CHECK ("characters"."job" <> 'Natural Scientist' or "characters"."faction" = 'Union Research Initiative')
);
--> statement-breakpoint
CREATE TABLE "event_attendance" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"event_id" uuid NOT NULL,
	"cabin" text,
	"payment_status" text DEFAULT 'paid' NOT NULL,
	"character_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	CONSTRAINT "event_attendance_cabin_check" CHECK ("event_attendance"."cabin" is null or "event_attendance"."cabin" in ('Dragon''s Hoard', 'Arctic Fox', 'Weasel Haunt', 'Wisdom Owls', 'Clash Stags', 'Watch Nightingales', 'Watchtower', 'Camping')),
	CONSTRAINT "event_attendance_payment_status_check" CHECK ("event_attendance"."payment_status" in ('paid', 'unpaid'))
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"date" date NOT NULL,
	"status" text DEFAULT 'future' NOT NULL,
	"ticket_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_status_check" CHECK ("events"."status" in ('future', 'past', 'cancelled')),
	CONSTRAINT "events_ticket_url_https_check" CHECK ("events"."ticket_url" is null or "events"."ticket_url" like 'https://%')
);
--> statement-breakpoint
CREATE TABLE "letters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_key" uuid NOT NULL,
	"user_id" text NOT NULL,
	"recipient" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "merchant_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_key" uuid NOT NULL,
	"user_id" text NOT NULL,
	"event_id" uuid NOT NULL,
	"items" jsonb NOT NULL,
	"total_price" numeric(10, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "merchant_orders_total_positive_check" CHECK ("merchant_orders"."total_price" > 0)
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sequence" bigint GENERATED ALWAYS AS IDENTITY (sequence name "outbox_sequence_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "outbox_kind_check" CHECK ("outbox"."kind" in ('email', 'discord')),
	CONSTRAINT "outbox_status_check" CHECK ("outbox"."status" in ('pending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "pels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_key" uuid NOT NULL,
	"user_id" text NOT NULL,
	"event_id" uuid NOT NULL,
	"character_name" text NOT NULL,
	"scariness" text NOT NULL,
	"favorite_moments" text NOT NULL,
	"enjoyment" text NOT NULL,
	"notable_npcs" text NOT NULL,
	"notable_pcs" text NOT NULL,
	"improvements" text NOT NULL,
	"activities" text NOT NULL,
	"goals" text NOT NULL,
	"jobs" text NOT NULL,
	"drugs" text NOT NULL,
	"follow_up" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" text PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"role" text DEFAULT 'applicant' NOT NULL,
	"name" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"emergency_contact" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profiles_role_check" CHECK ("profiles"."role" in ('applicant', 'player', 'cast', 'manager'))
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "research" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_key" uuid NOT NULL,
	"user_id" text NOT NULL,
	"event_id" uuid NOT NULL,
	"sources" text NOT NULL,
	"research" text NOT NULL,
	"file_key" text NOT NULL,
	"file_name" text NOT NULL,
	"file_type" text NOT NULL,
	"file_size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"token" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "used_captchas" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verifications" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_decided_by_profiles_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_profiles_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_subject_id_profiles_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "characters" ADD CONSTRAINT "characters_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_attendance" ADD CONSTRAINT "event_attendance_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_attendance" ADD CONSTRAINT "event_attendance_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_attendance" ADD CONSTRAINT "event_attendance_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "letters" ADD CONSTRAINT "letters_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchant_orders" ADD CONSTRAINT "merchant_orders_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchant_orders" ADD CONSTRAINT "merchant_orders_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pels" ADD CONSTRAINT "pels_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pels" ADD CONSTRAINT "pels_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research" ADD CONSTRAINT "research_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research" ADD CONSTRAINT "research_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_user_id_idx" ON "accounts" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_provider_account_unique" ON "accounts" USING btree ("provider_id","account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "applications_user_id_unique" ON "applications" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "applications_created_at_idx" ON "applications" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "applications_decided_by_idx" ON "applications" USING btree ("decided_by");--> statement-breakpoint
CREATE INDEX "audit_log_created_at_idx" ON "audit_log" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_id_idx" ON "audit_log" USING btree ("actor_id");--> statement-breakpoint
CREATE INDEX "audit_log_subject_id_idx" ON "audit_log" USING btree ("subject_id");--> statement-breakpoint
CREATE UNIQUE INDEX "characters_user_id_unique" ON "characters" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "characters_character_name_idx" ON "characters" USING btree ("character_name");--> statement-breakpoint
CREATE UNIQUE INDEX "event_attendance_user_event_unique" ON "event_attendance" USING btree ("user_id","event_id");--> statement-breakpoint
CREATE INDEX "event_attendance_event_id_status_idx" ON "event_attendance" USING btree ("event_id","payment_status");--> statement-breakpoint
CREATE INDEX "event_attendance_created_by_idx" ON "event_attendance" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "events_status_date_idx" ON "events" USING btree ("status","date");--> statement-breakpoint
CREATE INDEX "events_date_idx" ON "events" USING btree ("date");--> statement-breakpoint
CREATE UNIQUE INDEX "letters_submission_key_unique" ON "letters" USING btree ("submission_key");--> statement-breakpoint
CREATE INDEX "letters_created_at_idx" ON "letters" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "letters_user_id_idx" ON "letters" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "merchant_orders_submission_key_unique" ON "merchant_orders" USING btree ("submission_key");--> statement-breakpoint
CREATE INDEX "merchant_orders_event_id_created_at_idx" ON "merchant_orders" USING btree ("event_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "merchant_orders_user_id_idx" ON "merchant_orders" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "outbox_pending_run_at_idx" ON "outbox" USING btree ("run_at") WHERE "outbox"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "outbox_pending_kind_sequence_idx" ON "outbox" USING btree ("kind","sequence") WHERE "outbox"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "outbox_created_at_idx" ON "outbox" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "pels_submission_key_unique" ON "pels" USING btree ("submission_key");--> statement-breakpoint
CREATE INDEX "pels_event_id_created_at_idx" ON "pels" USING btree ("event_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "pels_user_id_idx" ON "pels" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_email_unique" ON "profiles" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "profiles_role_first_name_idx" ON "profiles" USING btree ("role","first_name");--> statement-breakpoint
CREATE INDEX "profiles_last_first_name_idx" ON "profiles" USING btree ("last_name","first_name");--> statement-breakpoint
CREATE INDEX "rate_limits_reset_at_idx" ON "rate_limits" USING btree ("reset_at");--> statement-breakpoint
CREATE UNIQUE INDEX "research_file_key_unique" ON "research" USING btree ("file_key");--> statement-breakpoint
CREATE UNIQUE INDEX "research_submission_key_unique" ON "research" USING btree ("submission_key");--> statement-breakpoint
CREATE INDEX "research_event_id_created_at_idx" ON "research" USING btree ("event_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "research_user_id_idx" ON "research" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_unique" ON "sessions" USING btree ("token");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "used_captchas_expires_at_idx" ON "used_captchas" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "verifications_identifier_idx" ON "verifications" USING btree ("identifier");