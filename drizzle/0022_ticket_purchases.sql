CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"outcome" text NOT NULL,
	"purchase_id" uuid,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stripe_events_outcome_check" CHECK ("stripe_events"."outcome" in ('recorded', 'ignored', 'unmatched'))
);
--> statement-breakpoint
CREATE TABLE "ticket_purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text,
	"event_id" uuid NOT NULL,
	"status" text DEFAULT 'held' NOT NULL,
	"checkout_session_id" text,
	"checkout_url" text,
	"amount_cents" integer,
	"currency" text,
	"payment_intent_id" text,
	"hold_expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ticket_purchases_status_check" CHECK ("ticket_purchases"."status" in ('held', 'paid', 'refunding', 'refunded', 'released'))
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "ticket_price_cents" integer;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "ticket_places" integer;--> statement-breakpoint
ALTER TABLE "stripe_events" ADD CONSTRAINT "stripe_events_purchase_id_ticket_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."ticket_purchases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_purchases" ADD CONSTRAINT "ticket_purchases_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_purchases" ADD CONSTRAINT "ticket_purchases_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stripe_events_outcome_idx" ON "stripe_events" USING btree ("outcome","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_purchases_checkout_session_unique" ON "ticket_purchases" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_purchases_live_unique" ON "ticket_purchases" USING btree ("user_id","event_id") WHERE "ticket_purchases"."status" in ('held', 'paid');--> statement-breakpoint
CREATE INDEX "ticket_purchases_event_id_status_idx" ON "ticket_purchases" USING btree ("event_id","status");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_ticket_price_check" CHECK ("events"."ticket_price_cents" is null or "events"."ticket_price_cents" between 50 and 100000);--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_ticket_places_check" CHECK ("events"."ticket_places" is null or "events"."ticket_places" between 1 and 1000);