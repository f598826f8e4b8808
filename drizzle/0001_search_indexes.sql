-- Trigram indexes serve the staff searches (ILIKE '%term%'); pg_trgm is a trusted extension, so the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "characters_character_name_trgm_idx" ON "characters" USING gin ("character_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "letters_search_trgm_idx" ON "letters" USING gin (("recipient" || ' ' || "body") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "profiles_search_trgm_idx" ON "profiles" USING gin (("first_name" || ' ' || "last_name" || ' ' || "email") gin_trgm_ops);