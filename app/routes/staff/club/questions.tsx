import { data, useLocation } from "react-router";
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
 * One module for both pages of the club's questions (routes.ts names it twice). The kind is the
 * last segment of the route's pattern (/tools/club/pel-questions or
 * /tools/club/application-questions), not of the request's address, which ends in ".data" for
 * the page's own navigations and posts.
 */
function kindAt(path: string): QuestionKind | undefined {
  const last = path.toLowerCase().replace(/\/+$/, "").split("/").pop();
  return last === "pel-questions" || last === "application-questions" ? last : undefined;
}

function kindOfRoute(pattern: string): QuestionKind {
  const kind = kindAt(pattern);
  if (!kind) throw data("Not Found", { status: 404 });
  return kind;
}

export async function loader({ request, context, pattern }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  const kind = kindOfRoute(pattern);
  return { kind, ...(await loadQuestionsPage(kind)) };
}

export async function action({ request, context, pattern }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  const kind = kindOfRoute(pattern);
  const fields = await readForm(request);
  if (fields.intent === "restore") return restoreQuestions(kind, fields, manager);
  if (fields.intent === "save") return saveQuestions(kind, fields, manager);
  return previewQuestions(kind, fields);
}

export default function QuestionsRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <QuestionsPage kind={loaderData.kind} loaderData={loaderData} actionData={actionData} />;
}

export const meta: Route.MetaFunction = ({ loaderData, location }) => [
  {
    title: `${QUESTION_PAGES[loaderData?.kind ?? kindAt(location.pathname) ?? "pel-questions"].title} · Tools · Hopewell`,
  },
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
  const Boundary = boundaries[kindAt(useLocation().pathname) ?? "pel-questions"];
  return <Boundary error={error} />;
}
