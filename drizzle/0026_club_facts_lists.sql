ALTER TABLE "characters" DROP CONSTRAINT "characters_faction_check";--> statement-breakpoint
ALTER TABLE "characters" DROP CONSTRAINT "characters_job_check";--> statement-breakpoint
ALTER TABLE "characters" DROP CONSTRAINT "characters_soldier_faction_check";--> statement-breakpoint
ALTER TABLE "characters" DROP CONSTRAINT "characters_natural_scientist_faction_check";--> statement-breakpoint
ALTER TABLE "event_attendance" DROP CONSTRAINT "event_attendance_cabin_check";--> statement-breakpoint
ALTER TABLE "club_fact_versions" DROP CONSTRAINT "club_fact_versions_kind_check";--> statement-breakpoint
ALTER TABLE "merchant_orders" ADD COLUMN "priced_items" jsonb;--> statement-breakpoint
-- Every order so far was written against the built-in price list (game/merchant.ts until the club
-- could change it): keep with each order its items' names, units and prices as they were then.
UPDATE "merchant_orders" o SET "priced_items" = coalesce((
	SELECT jsonb_object_agg(e.key, jsonb_build_object(
		'name', coalesce(p.name, e.key), 'unit', coalesce(p.unit, ''), 'priceCents', coalesce(p.price_cents, 0)))
	FROM jsonb_object_keys(o."items") AS e(key)
	LEFT JOIN (VALUES
	('meat', 'Meat', 'piece', 300),
	('bandages', '10 Bandages', 'pack', 2250),
	('fabric', 'Fabric', 'bolt', 1300),
	('coal', 'Coal', 'bag', 500),
	('bullets', '20 Bullets', 'pack', 775),
	('raw_glass', 'Raw Glass', 'bag', 200),
	('iron_ore', 'Iron Ore', 'piece', 250),
	('iron_ingots', 'Iron Ingots', 'piece', 800),
	('lead', 'Lead', 'piece', 300),
	('seeds', 'Seeds', 'packet', 300),
	('vials', '20 Vials', 'pack', 4500),
	('nails', '50 Nails', 'pack', 4500),
	('salt', 'Salt', 'bag', 300),
	('spring_spacers', '5 Spring Spacers', 'crate', 2000),
	('springs', '5 Springs', 'crate', 5600),
	('cylinders', '5 Cylinders', 'crate', 9800),
	('hand_grips', '5 Hand Grips', 'crate', 2800),
	('wood_stocks', '5 Wood Stocks', 'crate', 5600)
	) AS p(key, name, unit, price_cents) ON p.key = e.key
), '{}'::jsonb);--> statement-breakpoint
ALTER TABLE "merchant_orders" ALTER COLUMN "priced_items" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "club_fact_versions" ADD CONSTRAINT "club_fact_versions_kind_check" CHECK ("club_fact_versions"."kind" in ('faq', 'welcome', 'merchant', 'cabins', 'pel-questions', 'application-questions', 'factions', 'locations', 'rulebook'));