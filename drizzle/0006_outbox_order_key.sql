ALTER TABLE "outbox" DROP CONSTRAINT "outbox_status_check";--> statement-breakpoint
DROP INDEX "outbox_pending_kind_sequence_idx";--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "order_key" text;--> statement-breakpoint
UPDATE "outbox" SET "order_key" = CASE WHEN "kind" = 'email' THEN 'email:' || lower(trim("payload"->>'to')) ELSE "kind" END;--> statement-breakpoint
ALTER TABLE "outbox" ALTER COLUMN "order_key" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_pending_order_key_sequence_idx" ON "outbox" USING btree ("order_key","sequence") WHERE "outbox"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "outbox_unsent_sequence_idx" ON "outbox" USING btree ("sequence") WHERE "outbox"."status" in ('pending', 'failed');--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_status_check" CHECK ("outbox"."status" in ('pending', 'sent', 'failed', 'discarded'));
