-- Every letter and application so far was written against the built-in questions (game/pel.ts and
-- game/application.ts until the club could change them): keep each answer with the question's
-- wording as it was then, in the order the form asked them, so a later rewording leaves it as written.
ALTER TABLE "pels" ADD COLUMN "answers" jsonb;--> statement-breakpoint
UPDATE "pels" SET "answers" = jsonb_build_array(
	jsonb_build_object('key', 'scariness', 'question', 'How scary was the weekend for you, and which moments frightened you most?', 'answer', "scariness"),
	jsonb_build_object('key', 'favoriteMoments', 'question', 'What were your favourite moments?', 'answer', "favorite_moments"),
	jsonb_build_object('key', 'enjoyment', 'question', 'How much did you enjoy the event overall, and why?', 'answer', "enjoyment"),
	jsonb_build_object('key', 'notableNpcs', 'question', 'Which cast characters (NPCs) stood out for you, and why?', 'answer', "notable_npcs"),
	jsonb_build_object('key', 'notablePcs', 'question', 'Which other players'' characters stood out for you, and why?', 'answer', "notable_pcs"),
	jsonb_build_object('key', 'improvements', 'question', 'What could we do better next time?', 'answer', "improvements"),
	jsonb_build_object('key', 'activities', 'question', 'What did your character spend the weekend doing?', 'answer', "activities"),
	jsonb_build_object('key', 'goals', 'question', 'What does your character want to do next?', 'answer', "goals"),
	jsonb_build_object('key', 'jobs', 'question', 'How did your character''s trade go? What did they make, sell or need?', 'answer', "jobs"),
	jsonb_build_object('key', 'drugs', 'question', 'Did your character take any tonics, remedies or stranger substances? What happened?', 'answer', "drugs"),
	jsonb_build_object('key', 'followUp', 'question', 'Is there anything you want staff to follow up on, in or out of character?', 'answer', "follow_up")
);--> statement-breakpoint
ALTER TABLE "pels" ALTER COLUMN "answers" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "pels" DROP COLUMN "scariness";--> statement-breakpoint
ALTER TABLE "pels" DROP COLUMN "favorite_moments";--> statement-breakpoint
ALTER TABLE "pels" DROP COLUMN "enjoyment";--> statement-breakpoint
ALTER TABLE "pels" DROP COLUMN "notable_npcs";--> statement-breakpoint
ALTER TABLE "pels" DROP COLUMN "notable_pcs";--> statement-breakpoint
ALTER TABLE "pels" DROP COLUMN "improvements";--> statement-breakpoint
ALTER TABLE "pels" DROP COLUMN "activities";--> statement-breakpoint
ALTER TABLE "pels" DROP COLUMN "goals";--> statement-breakpoint
ALTER TABLE "pels" DROP COLUMN "jobs";--> statement-breakpoint
ALTER TABLE "pels" DROP COLUMN "drugs";--> statement-breakpoint
ALTER TABLE "pels" DROP COLUMN "follow_up";--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "answers" jsonb;--> statement-breakpoint
UPDATE "applications" SET "answers" = jsonb_build_array(
	jsonb_build_object('key', 'larpExperience', 'question', 'What larp experience do you have?', 'answer', "larp_experience"),
	jsonb_build_object('key', 'inCharacterPreference', 'question', 'How much of a weekend do you like to spend in character?', 'answer', "in_character_preference"),
	jsonb_build_object('key', 'physicalActivityAcknowledgment', 'question', 'Hopewell is played outdoors, at night, on uneven trails and in New England weather. Are you able to take part, and is there anything we should plan for?', 'answer', "physical_activity_acknowledgment"),
	jsonb_build_object('key', 'icOcSeparation', 'question', 'How do you keep in-character conflict separate from out-of-character friendships?', 'answer', "ic_oc_separation"),
	jsonb_build_object('key', 'phobiaHandling', 'question', 'This is a horror game. Do you have phobias or triggers we should know about, and how would you like them handled?', 'answer', "phobia_handling"),
	jsonb_build_object('key', 'nonBreakingExit', 'question', 'If a scene becomes too much, how would you step out of it without stopping the game for everyone else?', 'answer', "non_breaking_exit"),
	jsonb_build_object('key', 'plotEngagement', 'question', 'How do you like to engage with plot?', 'answer', "plot_engagement"),
	jsonb_build_object('key', 'larpTypes', 'question', 'What kinds of larps do you enjoy most?', 'answer', "larp_types"),
	jsonb_build_object('key', 'larpPriorities', 'question', 'What matters most to you in a weekend of larping?', 'answer', "larp_priorities"),
	jsonb_build_object('key', 'physicalRoleplayComfort', 'question', 'How comfortable are you with physical roleplay, and where are your limits?', 'answer', "physical_roleplay_comfort"),
	jsonb_build_object('key', 'characterDeathStance', 'question', 'How do you feel about your character dying for good?', 'answer', "character_death_stance"),
	jsonb_build_object('key', 'cheatingResponse', 'question', 'What would you do if you saw another player cheating?', 'answer', "cheating_response"),
	jsonb_build_object('key', 'plotDiscomfortHandling', 'question', 'What would you do if a plot line made you uncomfortable out of character?', 'answer', "plot_discomfort_handling"),
	jsonb_build_object('key', 'complaintHandling', 'question', 'If you had a complaint about another player or a member of staff, how would you raise it?', 'answer', "complaint_handling"),
	jsonb_build_object('key', 'referralSource', 'question', 'How did you hear about Hopewell?', 'answer', "referral_source")
);--> statement-breakpoint
ALTER TABLE "applications" ALTER COLUMN "answers" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" DROP COLUMN "larp_experience";--> statement-breakpoint
ALTER TABLE "applications" DROP COLUMN "in_character_preference";--> statement-breakpoint
ALTER TABLE "applications" DROP COLUMN "physical_activity_acknowledgment";--> statement-breakpoint
ALTER TABLE "applications" DROP COLUMN "ic_oc_separation";--> statement-breakpoint
ALTER TABLE "applications" DROP COLUMN "phobia_handling";--> statement-breakpoint
ALTER TABLE "applications" DROP COLUMN "non_breaking_exit";--> statement-breakpoint
ALTER TABLE "applications" DROP COLUMN "plot_engagement";--> statement-breakpoint
ALTER TABLE "applications" DROP COLUMN "larp_types";--> statement-breakpoint
ALTER TABLE "applications" DROP COLUMN "larp_priorities";--> statement-breakpoint
ALTER TABLE "applications" DROP COLUMN "physical_roleplay_comfort";--> statement-breakpoint
ALTER TABLE "applications" DROP COLUMN "character_death_stance";--> statement-breakpoint
ALTER TABLE "applications" DROP COLUMN "cheating_response";--> statement-breakpoint
ALTER TABLE "applications" DROP COLUMN "plot_discomfort_handling";--> statement-breakpoint
ALTER TABLE "applications" DROP COLUMN "complaint_handling";--> statement-breakpoint
ALTER TABLE "applications" DROP COLUMN "referral_source";