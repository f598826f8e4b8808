import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { signOut } from "~/features/accounts/accounts.server";

/**
 * Sign Out posts here: the session ends on the server and the cookie is cleared. The browser
 * is also told to drop what it keeps for the site (the event-day sheet's offline copy, with its
 * emergency contacts, and the worker keeping it); the session cookie goes by Set-Cookie.
 */
export async function action({ request }: Route.ActionArgs) {
  const headers = new Headers({ "Clear-Site-Data": '"cache", "storage"' });
  for (const cookie of await signOut(request)) headers.append("Set-Cookie", cookie);
  return redirect("/", { headers });
}

export function loader() {
  return redirect("/");
}
