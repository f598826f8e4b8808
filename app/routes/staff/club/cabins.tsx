import type { Route } from "./+types/cabins";
import { requireAccess } from "~/web/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  return null;
}

export default function Page() {
  return <h1>cabins</h1>;
}
