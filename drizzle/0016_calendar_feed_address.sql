-- A member who thinks their calendar-feed address leaked asks for a new one: the feed key signs
-- this number too (0, the addresses given so far, keeps its old form), so the old address stops working.
ALTER TABLE "profiles" ADD COLUMN "calendar_feed_generation" integer DEFAULT 0 NOT NULL;