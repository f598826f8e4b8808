import { useLocation } from "react-router";
import type { Route } from "./+types/questions";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { QUESTION_PAGES } from "~/features/club-facts/questions/question-pages";
import { QuestionsPage } from "~/features/club-facts/questions/QuestionsPage";
import {
  loadQuestionsPage,
  previewQuestions,
  restoreQuestions,
  saveQuestions,
} from "~/features/club-facts/questions/questions-page.server";
import type { QuestionKind } from "~/features/club-facts/questions/questions.server";
import { readForm } from "~/web/forms/kernel";
import { requireAccess } from "~/web/guards.server";

/**
 * One module for both pages of the club's questions (routes.ts names it twice): the kind is the
 * address's last segment, /tools/club/pel-questions or /tools/club/application-questions.
 */
function kindAt(pathname: string): QuestionKind {
  return pathname.replace(/\/+$/, "").endsWith("/application-questions") ? "application-questions" : "pel-questions";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return loadQuestionsPage(kindAt(new URL(request.url).pathname));
}

export async function action({ request, context }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  const kind = kindAt(new URL(request.url).pathname);
  const fields = await readForm(request);
  if (fields.intent === "restore") return restoreQuestions(kind, fields, manager);
  if (fields.intent === "save") return saveQuestions(kind, fields, manager);
  return previewQuestions(kind, fields);
}

export default function QuestionsRoute({ loaderData, actionData }: Route.ComponentProps) {
  const kind = kindAt(useLocation().pathname);
  return <QuestionsPage kind={kind} loaderData={loaderData} actionData={actionData} />;
}

export const meta: Route.MetaFunction = ({ location }) => [
  { title: `${QUESTION_PAGES[kindAt(location.pathname)].title} · Tools · Hopewell` },
];

const boundaries = {
  "pel-questions": pageErrorBoundary(
    QUESTION_PAGES["pel-questions"].title,
    "The letter's questions could not be loaded. Please try again in a moment.",
  ),
  "application-questions": pageErrorBoundary(
    QUESTION_PAGES["application-questions"].title,
    "The application's questions could not be loaded. Please try again in a moment.",
  ),
};

export function ErrorBoundary({ error }: { error: unknown }) {
  const Boundary = boundaries[kindAt(useLocation().pathname)];
  return <Boundary error={error} />;
}
