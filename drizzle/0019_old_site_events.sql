-- The old site's count of events a member attended (characters.events_attended), kept by the
-- import with the day it was taken: Events Survived starts from it and adds the events attended here.
ALTER TABLE "profiles" ADD COLUMN "old_site_events_attended" integer;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "old_site_events_as_of" date;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_old_site_events_check" CHECK (("profiles"."old_site_events_attended" is null and "profiles"."old_site_events_as_of" is null) or ("profiles"."old_site_events_attended" >= 0 and "profiles"."old_site_events_as_of" is not null));