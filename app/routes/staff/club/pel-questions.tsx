import type { Route } from "./+types/pel-questions";
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
  return loadQuestionsPage("pel-questions");
}

export async function action({ request, context }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  const fields = await readForm(request);
  if (fields.intent === "restore") return restoreQuestions("pel-questions", fields, manager);
  if (fields.intent === "save") return saveQuestions("pel-questions", fields, manager);
  return previewQuestions("pel-questions", fields);
}

export default function PelQuestions({ loaderData, actionData }: Route.ComponentProps) {
  return <QuestionsPage kind="pel-questions" loaderData={loaderData} actionData={actionData} />;
}

export const meta: Route.MetaFunction = () => [{ title: "Post-Event Letter Questions · Tools · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary(
  "Post-Event Letter Questions",
  "The letter's questions could not be loaded. Please try again in a moment.",
);
