DROP INDEX "letters_search_trgm_idx";--> statement-breakpoint
ALTER TABLE "letters" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower("recipient" || ' ' || "body")) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "letters_search_text_trgm_idx" ON "letters" USING gin ("search_text" gin_trgm_ops);