-- A staff reply's form carries a one-time key, so a form sent twice (a reload after posting it
-- without JavaScript) leaves one reply. Replies written before have none (null keys never collide).
ALTER TABLE "staff_replies" ADD COLUMN "submission_key" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "staff_replies_submission_key_unique" ON "staff_replies" USING btree ("submission_key");