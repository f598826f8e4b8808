import type { Route } from "./+types/research-upload";
import { requireAccess } from "~/server/guards.server";
import { logger } from "~/server/logger.server";
import { RESEARCH_MESSAGES } from "~/forms/submissions";
import { submitResearch } from "~/server/research.server";

/** The research form's upload when JavaScript runs, answering in JSON so the page can show progress. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  try {
    const outcome = await submitResearch(user, request);
    if (outcome.ok) return Response.json({ submitted: true });
    return Response.json({ message: outcome.message, errors: outcome.errors, values: outcome.values }, { status: outcome.status });
  } catch (error) {
    logger.error({ err: error }, "saving research failed");
    return Response.json({ message: RESEARCH_MESSAGES.failed }, { status: 500 });
  }
}
