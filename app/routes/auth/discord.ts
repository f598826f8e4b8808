import { redirect } from "react-router";
import type { Route } from "./+types/discord";
import { readForm } from "~/web/forms/kernel";
import { requestInfoContext } from "~/web/request-context";
import {
  discordNoticeAddress,
  requireDiscordSignIn,
  startDiscordSignIn,
} from "~/features/discord/discord-sign-in.server";
import { optionalUser } from "~/web/guards.server";

/** "Sign in with Discord" posts here (a plain form, so it works without JavaScript). */
export function loader() {
  requireDiscordSignIn();
  throw redirect("/auth");
}

export async function action({ request, context }: Route.ActionArgs) {
  requireDiscordSignIn();
  // Already signed in: nothing to do here.
  if (optionalUser(context)) throw redirect("/");
  const fields = await readForm(request);
  const outcome = await startDiscordSignIn(request, context.get(requestInfoContext).clientAddress, fields.redirectTo);
  if (!outcome.ok) throw redirect(discordNoticeAddress("signin", outcome.notice, fields.redirectTo));
  const headers = new Headers();
  for (const cookie of outcome.setCookies) headers.append("Set-Cookie", cookie);
  throw redirect(outcome.url, { headers });
}
