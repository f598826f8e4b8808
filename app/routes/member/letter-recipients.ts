import type { Route } from "./+types/letter-recipients";
import { requireAccess } from "~/web/guards.server";
import { suggestRecipients } from "~/features/submissions/submissions.server";
import { searchTermOf } from "~/web/forms/kernel";

/** Character names for the letter form's suggestions. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "member");
  const typed = searchTermOf(request.url);
  return { names: await suggestRecipients(typed) };
}
