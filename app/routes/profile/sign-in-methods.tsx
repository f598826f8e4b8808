import type { ReactNode } from "react";
import { data, Form, redirect, useNavigation, useSearchParams } from "react-router";
import { Link } from "~/components/Link";
import type { Route } from "./+types/sign-in-methods";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { ProfileLayout } from "~/features/members/ProfileLayout";
import { Alert } from "~/components/ui/Alert";
import { readForm } from "~/web/forms/kernel";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { canBuildCharacter } from "~/game/roles";
import {
  DISCORD_NOTICES,
  DISCORD_UNLINK_MESSAGES,
  discordNoticeOf,
  isGoodDiscordNotice,
} from "~/features/discord/discord-sign-in";
import { requestInfoContext } from "~/web/request-context";
import { failSafely } from "~/web/actions.server";
import {
  listSignInMethods,
  requireDiscordSignIn,
  startDiscordLink,
  unlinkDiscord,
} from "~/features/discord/discord-sign-in.server";
import { requireAccess } from "~/web/guards.server";

const PAGE = "/profile/sign-in-methods";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  requireDiscordSignIn();
  return { canHaveCharacter: canBuildCharacter(user.role), methods: await listSignInMethods(request) };
}

type ActionData = { ok?: string; message?: string };

export async function action({ request, context }: Route.ActionArgs) {
  requireAccess(context, request, "member");
  requireDiscordSignIn();
  const fields = await readForm(request);
  if (fields.intent === "link") {
    const outcome = await startDiscordLink(request, context.get(requestInfoContext).clientAddress);
    if (!outcome.ok) return data<ActionData>({ message: DISCORD_NOTICES[outcome.notice] }, { status: 429 });
    const headers = new Headers();
    for (const cookie of outcome.setCookies) headers.append("Set-Cookie", cookie);
    throw redirect(outcome.url, { headers });
  }
  if (fields.intent === "unlink") {
    return failSafely<ActionData>("unlinking Discord", { message: DISCORD_UNLINK_MESSAGES.failed }, async () => {
      const outcome = await unlinkDiscord(request);
      if (!outcome.ok) return data({ message: outcome.message }, { status: outcome.status });
      return data({ ok: DISCORD_UNLINK_MESSAGES.unlinked });
    });
  }
  return data<ActionData>({ message: "That action is not available here." }, { status: 400 });
}

function Method({ title, children }: { title: string; children: ReactNode }) {
  return (
    <li className="flex flex-col gap-3 py-4">
      <h3 className="text-xl">{title}</h3>
      {children}
    </li>
  );
}

export default function ProfileSignInMethods({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const { methods } = loaderData;
  // The outcome of a link comes back in the address; an answer to a form here replaces it.
  const notice = actionData ? null : discordNoticeOf(searchParams);
  const discord = methods.discord;
  const discordName = discord?.username ? `@${discord.username}` : null;
  return (
    <ProfileLayout canHaveCharacter={loaderData.canHaveCharacter} active="sign-in-methods">
      <section aria-labelledby="sign-in-methods" className="panel flex flex-col gap-4">
        <h2 id="sign-in-methods" className="text-2xl">
          Sign-in methods
        </h2>
        <p className="text-sm text-dust">
          The ways you can sign in to Hopewell. Keep at least one: the last one cannot be removed.
        </p>
        {notice ? (
          <Alert kind={isGoodDiscordNotice(notice) ? "success" : "error"}>{DISCORD_NOTICES[notice]}</Alert>
        ) : null}
        {actionData?.ok ? <Alert kind="success">{actionData.ok}</Alert> : null}
        {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
        <ul className="divide-y divide-ash">
          <Method title="Password">
            {methods.password ? (
              <p>
                Set: you can sign in with your email and password.{" "}
                <Link to="/profile/password">Change your password</Link>
              </p>
            ) : (
              <p>
                Not set: you cannot sign in with a password yet.{" "}
                <Link to="/forgot-password">Set one with a link by email</Link>
              </p>
            )}
          </Method>
          <Method title="Discord">
            {discord ? (
              <>
                <p data-testid="discord-status">
                  Linked
                  {discordName ? (
                    <>
                      {" "}
                      to <strong className="break-all">{discordName}</strong>
                      {discord.displayName ? ` (${discord.displayName})` : null}
                    </>
                  ) : null}
                  : you can sign in with Discord.
                </p>
                <Form method="post" action={PAGE}>
                  <button type="submit" name="intent" value="unlink" className="btn btn-secondary" disabled={busy}>
                    Unlink Discord
                  </button>
                </Form>
              </>
            ) : (
              <>
                <p data-testid="discord-status">
                  Not linked. Link your Discord account to sign in with it instead of your password.
                </p>
                {/* A whole-page submission: the answer is a redirect to Discord. */}
                <Form method="post" action={PAGE} reloadDocument>
                  <button type="submit" name="intent" value="link" className="btn btn-primary" disabled={busy}>
                    Link Discord
                  </button>
                </Form>
              </>
            )}
          </Method>
        </ul>
      </section>
    </ProfileLayout>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Sign-in methods · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Sign-in methods", SUBMISSION_MESSAGES.loadFailed);
