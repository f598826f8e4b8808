import { and, eq } from "drizzle-orm";
import { currentFacts } from "../club-facts.server";
import { KINDS } from "../kinds";
import { askedQuestions, QuestionsSchema, type AskedQuestion } from "./questions.facts";
import { database } from "~/platform/db/client.server";
import { clubFactVersions } from "~/platform/db/schema";

/** The two kinds of the club's questions: the post-event letter's and the application's. */
export type QuestionKind = "pel-questions" | "application-questions";

/** What a form asks: the questions, and the version of the list they are from (the form sends it back). */
export type QuestionsAsked = { version: number; questions: AskedQuestion[] };

/** The questions a form asks now: the club's current list, without the retired ones. */
export async function questionsToAsk(kind: QuestionKind): Promise<QuestionsAsked> {
  const { version, content } = await currentFacts(kind);
  return { version, questions: askedQuestions(content) };
}

/**
 * The questions a sent form showed: those of the version it was opened at (`questionsVersion`),
 * so a manager's change while the member was writing neither asks for an answer they were never
 * asked nor keeps theirs under a wording they never saw. An unknown version reads as today's.
 */
export async function questionsShown(kind: QuestionKind, typed: string | undefined): Promise<AskedQuestion[]> {
  const now = await questionsToAsk(kind);
  const version = Number(typed);
  if (typed === undefined || typed === "" || !Number.isInteger(version) || version === now.version)
    return now.questions;
  if (version === 0) return askedQuestions(KINDS[kind].starting());
  const db = await database();
  const [row] = await db
    .select({ content: clubFactVersions.content })
    .from(clubFactVersions)
    .where(and(eq(clubFactVersions.kind, kind), eq(clubFactVersions.version, version)));
  const parsed = QuestionsSchema.safeParse(row?.content);
  return parsed.success ? askedQuestions(parsed.data) : now.questions;
}
