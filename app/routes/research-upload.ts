import { data } from "react-router";
import type { Route } from "./+types/research-upload";
import { failSafely } from "~/server/actions.server";
import { requireAccess } from "~/server/guards.server";
import { RESEARCH_MESSAGES } from "~/forms/submissions";
import { submitResearch } from "~/server/research.server";

type Result = { submitted?: boolean; message?: string; errors?: Record<string, string>; values?: Record<string, string> };

/** The research form's upload when JavaScript runs, answering in JSON (a resource route's data) so the page can show progress. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  return failSafely<Result>("saving research", { message: RESEARCH_MESSAGES.failed }, async () => {
    const outcome = await submitResearch(user, request);
    if (outcome.ok) return data({ submitted: true });
    return data({ message: outcome.message, errors: outcome.errors, values: outcome.values }, { status: outcome.status });
  });
}
