-- The member's profile page (application, character, events survived) is kept in memory
-- too: announce writes to the tables it reads, as 0002 does for sessions, profiles and events.
CREATE TRIGGER applications_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "applications" FOR EACH STATEMENT EXECUTE FUNCTION hopewell_announce_change();
--> statement-breakpoint
CREATE TRIGGER characters_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "characters" FOR EACH STATEMENT EXECUTE FUNCTION hopewell_announce_change();
--> statement-breakpoint
CREATE TRIGGER event_attendance_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "event_attendance" FOR EACH STATEMENT EXECUTE FUNCTION hopewell_announce_change();
