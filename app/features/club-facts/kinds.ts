import type { z } from "zod";
import { FaqSchema, WelcomeSchema } from "./club-facts.form";
import { CabinsSchema, startingCabins } from "./cabins/cabins.facts";
import { FactionsSchema, startingFactions } from "./factions/factions.facts";
import { MerchantSchema, startingMerchant } from "./merchant/merchant.facts";
import { LocationsSchema, startingLocations } from "./pages/locations.facts";
import { RulebookSchema, startingRulebook } from "./pages/rulebook.facts";
import {
  ApplicationQuestionsSchema,
  PelQuestionsSchema,
  startingApplicationQuestions,
  startingPelQuestions,
} from "./questions/questions.facts";
import { FAQ } from "~/game/faq";
import { WELCOME } from "~/game/welcome";

/**
 * Every kind of the club's facts: what a version of it must hold (checked before it is saved),
 * the starting version a site shows until a manager first saves one (today's built-in list, so a
 * club that changes nothing sees what it always saw), and how its history describes a version.
 */
type Definition<T> = { schema: z.ZodType<T>; starting: () => T; size: (content: T) => string };

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const characters = (text: string) => `${text.length.toLocaleString("en-US")} characters`;

type Kinds = {
  faq: Definition<z.infer<typeof FaqSchema>>;
  welcome: Definition<z.infer<typeof WelcomeSchema>>;
  merchant: Definition<z.infer<typeof MerchantSchema>>;
  cabins: Definition<z.infer<typeof CabinsSchema>>;
  "pel-questions": Definition<z.infer<typeof PelQuestionsSchema>>;
  "application-questions": Definition<z.infer<typeof ApplicationQuestionsSchema>>;
  factions: Definition<z.infer<typeof FactionsSchema>>;
  locations: Definition<z.infer<typeof LocationsSchema>>;
  rulebook: Definition<z.infer<typeof RulebookSchema>>;
};

export const KINDS: Kinds = {
  faq: {
    schema: FaqSchema,
    // The built-in answers are lists of paragraphs; as formatted text a blank line parts them.
    starting: () => FAQ.map(({ id, question, answer }) => ({ id, question, answer: answer.join("\n\n") })),
    size: (content) => count(content.length, "question", "questions"),
  },
  welcome: { schema: WelcomeSchema, starting: () => WELCOME.join("\n\n"), size: characters },
  merchant: {
    schema: MerchantSchema,
    starting: startingMerchant,
    size: (content) => count(content.items.filter((item) => !item.retired).length, "item", "items") + " for sale",
  },
  cabins: {
    schema: CabinsSchema,
    starting: startingCabins,
    size: (content) => count(content.filter((cabin) => !cabin.retired).length, "cabin", "cabins"),
  },
  "pel-questions": {
    schema: PelQuestionsSchema,
    starting: startingPelQuestions,
    size: (content) => count(content.filter((question) => !question.retired).length, "question", "questions"),
  },
  "application-questions": {
    schema: ApplicationQuestionsSchema,
    starting: startingApplicationQuestions,
    size: (content) => count(content.filter((question) => !question.retired).length, "question", "questions"),
  },
  factions: {
    schema: FactionsSchema,
    starting: startingFactions,
    size: (content) =>
      `${count(content.factions.filter((f) => !f.retired).length, "faction", "factions")}, ${count(
        content.jobs.filter((j) => !j.retired).length,
        "job",
        "jobs",
      )}`,
  },
  locations: {
    schema: LocationsSchema,
    starting: startingLocations,
    size: (content) => characters(Object.values(content).join("")),
  },
  rulebook: {
    schema: RulebookSchema,
    starting: startingRulebook,
    size: (content) =>
      content.source === "link" ? "a link" : content.source === "file" ? "a PDF" : "the built-in one",
  },
};

/** What a version of each kind holds. */
export type ClubFacts = { [K in keyof Kinds]: ReturnType<Kinds[K]["starting"]> };
