import type { Route } from "./+types/rulebook";
import { requireAccess } from "~/web/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return null;
}

export default function Page() {
  return <h1>rulebook</h1>;
}
