-- The events page keeps each member's costume photos and verdicts until either table changes:
-- announce writes to the verdicts (costume photos announce theirs since 0013).
CREATE TRIGGER costume_reviews_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "costume_reviews" FOR EACH STATEMENT EXECUTE FUNCTION hopewell_announce_change();
