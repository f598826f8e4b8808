ALTER TABLE "stripe_events" DROP CONSTRAINT "stripe_events_outcome_check";--> statement-breakpoint
ALTER TABLE "ticket_purchases" DROP CONSTRAINT "ticket_purchases_status_check";--> statement-breakpoint
ALTER TABLE "stripe_events" ADD COLUMN "dealt_with_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stripe_events" ADD COLUMN "dealt_with_by" text;--> statement-breakpoint
ALTER TABLE "ticket_purchases" ADD COLUMN "price_cents" integer;--> statement-breakpoint
ALTER TABLE "ticket_purchases" ADD COLUMN "refund_reason" text;--> statement-breakpoint
ALTER TABLE "ticket_purchases" ADD COLUMN "refunded_cents" integer;--> statement-breakpoint
ALTER TABLE "ticket_purchases" ADD COLUMN "refunded_by" text;--> statement-breakpoint
ALTER TABLE "stripe_events" ADD CONSTRAINT "stripe_events_dealt_with_by_profiles_id_fk" FOREIGN KEY ("dealt_with_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_purchases" ADD CONSTRAINT "ticket_purchases_refunded_by_profiles_id_fk" FOREIGN KEY ("refunded_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_events" ADD CONSTRAINT "stripe_events_outcome_check" CHECK ("stripe_events"."outcome" in ('recorded', 'ignored', 'unmatched', 'mismatch'));--> statement-breakpoint
ALTER TABLE "ticket_purchases" ADD CONSTRAINT "ticket_purchases_refund_reason_check" CHECK ("ticket_purchases"."refund_reason" in ('manager', 'stripe', 'event-full', 'event-cancelled', 'account-deleted'));--> statement-breakpoint
ALTER TABLE "ticket_purchases" ADD CONSTRAINT "ticket_purchases_status_check" CHECK ("ticket_purchases"."status" in ('held', 'paid', 'refunding', 'refunded', 'released', 'failed'));