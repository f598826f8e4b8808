import type { Route } from "./+types/application-questions";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { QuestionsPage } from "~/features/club-facts/questions/QuestionsPage";
import {
  loadQuestionsPage,
  previewQuestions,
  restoreQuestions,
  saveQuestions,
} from "~/features/club-facts/questions/questions-page.server";
import { readForm } from "~/web/forms/kernel";
import { requireAccess } from "~/web/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return loadQuestionsPage("application-questions");
}

export async function action({ request, context }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  const fields = await readForm(request);
  if (fields.intent === "restore") return restoreQuestions("application-questions", fields, manager);
  if (fields.intent === "save") return saveQuestions("application-questions", fields, manager);
  return previewQuestions("application-questions", fields);
}

export default function ApplicationQuestions({ loaderData, actionData }: Route.ComponentProps) {
  return <QuestionsPage kind="application-questions" loaderData={loaderData} actionData={actionData} />;
}

export const meta: Route.MetaFunction = () => [{ title: "Application Questions · Tools · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary(
  "Application Questions",
  "The application's questions could not be loaded. Please try again in a moment.",
);
