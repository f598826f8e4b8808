ALTER TABLE "letters" ADD COLUMN "recipient_id" text;--> statement-breakpoint
ALTER TABLE "letters" ADD COLUMN "sender_name" text;--> statement-breakpoint
ALTER TABLE "letters" ADD COLUMN "from_npc" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "letters" ADD COLUMN "thread_id" uuid;--> statement-breakpoint
ALTER TABLE "letters" ADD COLUMN "status" text DEFAULT 'filed' NOT NULL;--> statement-breakpoint
ALTER TABLE "letters" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "letters" ADD COLUMN "read_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "letters" ADD CONSTRAINT "letters_recipient_id_profiles_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "letters" ADD CONSTRAINT "letters_thread_id_letters_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."letters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "characters_lower_character_name_idx" ON "characters" USING btree (lower("character_name"),"created_at");--> statement-breakpoint
CREATE INDEX "letters_letter_box_idx" ON "letters" USING btree ("recipient_id","delivered_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "letters"."status" = 'delivered';--> statement-breakpoint
CREATE INDEX "letters_unread_idx" ON "letters" USING btree ("recipient_id") WHERE "letters"."status" = 'delivered' and "letters"."read_at" is null;--> statement-breakpoint
CREATE INDEX "letters_thread_id_idx" ON "letters" USING btree ("thread_id");--> statement-breakpoint
CREATE INDEX "letters_queue_idx" ON "letters" USING btree ("status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "letters"."status" in ('held', 'to_staff');--> statement-breakpoint
ALTER TABLE "letters" ADD CONSTRAINT "letters_status_check" CHECK ("letters"."status" in ('held', 'delivered', 'to_staff', 'answered', 'filed'));