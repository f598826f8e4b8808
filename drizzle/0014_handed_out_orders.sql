ALTER TABLE "merchant_orders" ADD COLUMN "handed_out_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "merchant_orders" ADD COLUMN "handed_out_by" text;--> statement-breakpoint
ALTER TABLE "merchant_orders" ADD CONSTRAINT "merchant_orders_handed_out_by_profiles_id_fk" FOREIGN KEY ("handed_out_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "merchant_orders_handed_out_by_idx" ON "merchant_orders" USING btree ("handed_out_by");