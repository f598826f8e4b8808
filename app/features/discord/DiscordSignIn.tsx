import { useRouteLoaderData, useSearchParams } from "react-router";
import { Alert } from "~/components/ui/Alert";
import { DISCORD_NOTICES, discordNoticeOf, isGoodDiscordNotice } from "./discord-sign-in";
import type { loader as rootLoader } from "~/root";

function useDiscordSignIn(): boolean {
  return useRouteLoaderData<typeof rootLoader>("root")?.discordSignIn ?? false;
}

/**
 * "Sign in with Discord": a plain form posting to /auth/discord, which answers with a
 * redirect to Discord, so it works without JavaScript. Nothing when Discord is not configured.
 */
export function DiscordSignInButton({ redirectTo }: { redirectTo: string }) {
  if (!useDiscordSignIn()) return null;
  return (
    <div className="mt-6 flex flex-col gap-4">
      <p className="flex items-center gap-3 text-sm text-dust" aria-hidden="true">
        <span className="h-px flex-1 bg-timber" />
        or
        <span className="h-px flex-1 bg-timber" />
      </p>
      <form method="post" action="/auth/discord">
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <button type="submit" className="btn btn-secondary w-full">
          Sign in with Discord
        </button>
      </form>
      <p className="text-center text-sm text-dust">
        For members who have linked Discord under Profile, Sign-in methods.
      </p>
    </div>
  );
}

/** The outcome of a Discord sign-in that came back to the sign-in page (`?discord=…`), until the next answer replaces it. */
export function DiscordSignInNotice({ replaced }: { replaced: boolean }) {
  const [searchParams] = useSearchParams();
  const enabled = useDiscordSignIn();
  const notice = discordNoticeOf(searchParams);
  if (!enabled || replaced || !notice) return null;
  return (
    <div className="mt-6">
      <Alert kind={isGoodDiscordNotice(notice) ? "success" : "error"}>{DISCORD_NOTICES[notice]}</Alert>
    </div>
  );
}
