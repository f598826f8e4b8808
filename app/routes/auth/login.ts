import { redirect } from "react-router";
import type { Route } from "./+types/login";

/** /login is the sign-in screen's familiar address. */
export function loader({ request }: Route.LoaderArgs) {
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  return redirect(redirectTo ? `/auth?${new URLSearchParams({ redirectTo })}` : "/auth");
}
