import type { Route } from "./+types/letter-recipients";
import { requireAccess } from "~/server/guards.server";
import { suggestRecipients } from "~/server/submissions.server";
import { searchTermOf } from "~/forms/kernel";

/** Character names for the letter form's suggestions. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "member");
  const typed = searchTermOf(request.url);
  return { names: await suggestRecipients(typed) };
}
