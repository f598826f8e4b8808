import type { Route } from "./+types/application-questions";
import { requireAccess } from "~/web/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return null;
}

export default function Page() {
  return <h1>application-questions</h1>;
}
