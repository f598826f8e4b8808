import { redirect } from "react-router";
import type { Route } from "./+types/discord-callback";
import { requestInfoContext } from "~/web/request-context";
import { completeDiscordCallback, requireDiscordSignIn } from "~/features/discord/discord-sign-in.server";
import { optionalUser } from "~/web/guards.server";

/**
 * Discord sends the browser back here after signing in or linking (the address registered
 * with Discord). Every outcome is a redirect: to the page to return to, signed in, or to the
 * flow's page with a notice. A missing or altered state is one of those notices, never an error page.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireDiscordSignIn();
  const outcome = await completeDiscordCallback(
    request,
    context.get(requestInfoContext).clientAddress,
    optionalUser(context) !== null,
  );
  const headers = new Headers();
  for (const cookie of outcome.setCookies) headers.append("Set-Cookie", cookie);
  throw redirect(outcome.to, { headers });
}
