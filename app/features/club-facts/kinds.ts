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
import { formatDollars } from "~/game/merchant";
import { WELCOME } from "~/game/welcome";

/**
 * Every kind of the club's facts: what a version of it must hold (checked before it is saved),
 * the starting version a site shows until a manager first saves one (today's built-in list, so a
 * club that changes nothing sees what it always saw), and how its history describes a version.
 */
type Definition<T> = {
  schema: z.ZodType<T>;
  starting: () => T;
  size: (content: T) => string;
  /** The version as lines of plain text, for the history to say what a save added and removed. */
  lines: (content: T) => string[];
};

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const characters = (text: string) => `${text.length.toLocaleString("en-US")} characters`;
const paragraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
const retired = (entry: { retired: boolean }) => (entry.retired ? " (retired)" : "");

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

function questionLines(content: { label: string; hint: string; required: boolean; retired: boolean }[]): string[] {
  return content.map(
    (q) => `${q.label}${q.hint ? ` (hint: ${q.hint})` : ""}${q.required ? "" : " (optional)"}${retired(q)}`,
  );
}

export const KINDS: Kinds = {
  faq: {
    schema: FaqSchema,
    // The built-in answers are lists of paragraphs; as formatted text a blank line parts them.
    starting: () => FAQ.map(({ id, question, answer }) => ({ id, question, answer: answer.join("\n\n") })),
    size: (content) => count(content.length, "question", "questions"),
    lines: (content) => content.map((entry) => `${entry.question}: ${entry.answer}`),
  },
  welcome: { schema: WelcomeSchema, starting: () => WELCOME.join("\n\n"), size: characters, lines: paragraphs },
  merchant: {
    schema: MerchantSchema,
    starting: startingMerchant,
    size: (content) => count(content.items.filter((item) => !item.retired).length, "item", "items") + " for sale",
    lines: (content) => [
      `Currency: ${content.currency}`,
      ...content.items.map(
        (item) =>
          `${item.name}: ${formatDollars(item.priceCents)} a ${item.unit}${
            item.events ? `, at ${count(item.events.length, "event", "events")} only` : ""
          }${retired(item)}`,
      ),
    ],
  },
  cabins: {
    schema: CabinsSchema,
    starting: startingCabins,
    size: (content) => count(content.filter((cabin) => !cabin.retired).length, "cabin", "cabins"),
    lines: (content) => content.map((cabin) => `${cabin.name}${retired(cabin)}`),
  },
  "pel-questions": {
    schema: PelQuestionsSchema,
    starting: startingPelQuestions,
    size: (content) => count(content.filter((question) => !question.retired).length, "question", "questions"),
    lines: questionLines,
  },
  "application-questions": {
    schema: ApplicationQuestionsSchema,
    starting: startingApplicationQuestions,
    size: (content) => count(content.filter((question) => !question.retired).length, "question", "questions"),
    lines: questionLines,
  },
  factions: {
    lines: (content) => [
      ...content.factions.map((faction) => `Faction: ${faction.name}${retired(faction)}`),
      ...content.jobs.map((job) => `Job: ${job.name}, open to ${job.faction ?? "every faction"}${retired(job)}`),
    ],
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
    lines: (content) =>
      Object.entries(content).flatMap(([section, text]) => paragraphs(text).map((p) => `${section}: ${p}`)),
    schema: LocationsSchema,
    starting: startingLocations,
    size: (content) => characters(Object.values(content).join("")),
  },
  rulebook: {
    lines: (content) => [
      content.source === "link"
        ? `A link: ${content.url}`
        : content.source === "file"
          ? `A PDF: ${content.fileName}`
          : "The built-in rulebook",
    ],
    schema: RulebookSchema,
    starting: startingRulebook,
    size: (content) =>
      content.source === "link" ? "a link" : content.source === "file" ? "a PDF" : "the built-in one",
  },
};

/** What a version of each kind holds. */
export type ClubFacts = { [K in keyof Kinds]: ReturnType<Kinds[K]["starting"]> };
