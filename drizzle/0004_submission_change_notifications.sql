-- The review pages keep, per kind of submission, which events have entries and how many
-- each has, and the letters list keeps its total: announce writes to those tables too.
CREATE TRIGGER pels_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "pels" FOR EACH STATEMENT EXECUTE FUNCTION hopewell_announce_change();
--> statement-breakpoint
CREATE TRIGGER merchant_orders_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "merchant_orders" FOR EACH STATEMENT EXECUTE FUNCTION hopewell_announce_change();
--> statement-breakpoint
CREATE TRIGGER research_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "research" FOR EACH STATEMENT EXECUTE FUNCTION hopewell_announce_change();
--> statement-breakpoint
CREATE TRIGGER letters_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "letters" FOR EACH STATEMENT EXECUTE FUNCTION hopewell_announce_change();
