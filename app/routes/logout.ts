import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { signOut } from "~/server/accounts.server";

/** Sign Out posts here: the session ends on the server and the cookie is cleared. */
export async function action({ request }: Route.ActionArgs) {
  const headers = new Headers();
  for (const cookie of await signOut(request)) headers.append("Set-Cookie", cookie);
  return redirect("/", { headers });
}

export function loader() {
  return redirect("/");
}
