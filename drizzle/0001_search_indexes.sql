-- Trigram indexes serve the staff searches (ILIKE '%term%'); pg_trgm is a trusted extension, so the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "applications_created_at_idx";--> statement-breakpoint
DROP INDEX "audit_log_created_at_idx";--> statement-breakpoint
DROP INDEX "letters_created_at_idx";--> statement-breakpoint
DROP INDEX "merchant_orders_event_id_created_at_idx";--> statement-breakpoint
DROP INDEX "outbox_created_at_idx";--> statement-breakpoint
DROP INDEX "pels_event_id_created_at_idx";--> statement-breakpoint
DROP INDEX "research_event_id_created_at_idx";--> statement-breakpoint
CREATE INDEX "characters_character_name_trgm_idx" ON "characters" USING gin ("character_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "letters_search_trgm_idx" ON "letters" USING gin (("recipient" || ' ' || "body") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "profiles_search_trgm_idx" ON "profiles" USING gin (("first_name" || ' ' || "last_name" || ' ' || "email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "applications_created_at_idx" ON "applications" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_created_at_idx" ON "audit_log" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "letters_created_at_idx" ON "letters" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "merchant_orders_event_id_created_at_idx" ON "merchant_orders" USING btree ("event_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "outbox_created_at_idx" ON "outbox" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "pels_event_id_created_at_idx" ON "pels" USING btree ("event_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "research_event_id_created_at_idx" ON "research" USING btree ("event_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);