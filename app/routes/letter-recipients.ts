import type { Route } from "./+types/letter-recipients";
import { requireAccess } from "~/server/guards.server";
import { suggestRecipients } from "~/server/submissions.server";

/** Character names for the letter form's suggestions. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "member");
  const typed = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 100);
  return { names: await suggestRecipients(typed) };
}
