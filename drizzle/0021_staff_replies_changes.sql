-- The profile keeps each member's answers from staff until a reply, or what it answers, changes:
-- announce writes to the replies (the submissions and events announce theirs since 0004).
CREATE TRIGGER staff_replies_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "staff_replies" FOR EACH STATEMENT EXECUTE FUNCTION hopewell_announce_change();
