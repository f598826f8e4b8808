import type { Route } from "./+types/rulebook-document";
import { rulebookDocument } from "~/features/site/rulebook-document.server";

/** The rulebook shown in the viewer: the club's uploaded PDF or link, else the built-in one (features/site). */
export async function loader({ request }: Route.LoaderArgs) {
  return rulebookDocument(request);
}
