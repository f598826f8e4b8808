-- Announces every write to the tables the app keeps copies of in memory (signed-in
-- sessions and the members they belong to, the events list), so each app process can
-- drop its copies at once: its own writes and those of other processes alike.
CREATE OR REPLACE FUNCTION hopewell_announce_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hopewell_changes', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION hopewell_announce_change();
--> statement-breakpoint
CREATE TRIGGER profiles_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "profiles" FOR EACH STATEMENT EXECUTE FUNCTION hopewell_announce_change();
--> statement-breakpoint
CREATE TRIGGER events_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "events" FOR EACH STATEMENT EXECUTE FUNCTION hopewell_announce_change();
