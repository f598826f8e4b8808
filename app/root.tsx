import type { ReactNode } from "react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunction,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { SiteErrorPage } from "~/components/PageErrorBoundary";
import { useNonce } from "~/components/nonce";
import { SiteFooter } from "~/components/SiteFooter";
import { SiteHeader } from "~/components/SiteHeader";
import { setClubTimeZone } from "~/lib/dates";
import { config } from "~/platform/config.server";
import { captchaWidgetSettings } from "~/platform/captcha.server";
import { discordSignInEnabled } from "~/identity/discord-oauth.server";
import { optionalUser } from "~/web/guards.server";
import { forgetOfflineSheets } from "~/features/event-day/event-day-offline";
import { unreadLetterCount } from "~/features/letters/letter-box.server";
import { accessMiddleware } from "~/web/middleware.server";
import { pageScriptOf } from "~/web/page-script";
import stylesheet from "./app.css?url";
import { useInAppLinks } from "~/web/in-app-links";

export const links: Route.LinksFunction = () => [
  // With a precedence, React writes the stylesheet at the top of the head, before the scripts'
  // modulepreload links; without one it came after all of them, and on a slow connection the
  // page could not paint until the browser had asked for every script first.
  { rel: "stylesheet", href: stylesheet, precedence: "default" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const middleware: Route.MiddlewareFunction[] = [accessMiddleware];

export async function loader({ context }: Route.LoaderArgs) {
  const user = optionalUser(context);
  return {
    user,
    // The navigation's count (kept in memory per member; null, and no count shown, should it fail).
    unreadLetters: user ? await unreadLetterCount(user.id) : null,
    social: config().social,
    captcha: captchaWidgetSettings(),
    // Shows "Sign in with Discord" and the profile's "Sign-in methods" (features/discord/DiscordSignIn.tsx, ProfileLayout.tsx).
    discordSignIn: discordSignInEnabled(),
    // Times on every page are shown on the club's clocks, in the browser as on the server (lib/dates.ts).
    clubTimeZone: config().clubTimeZone,
  };
}

/**
 * The root's data is read again after a form is sent, and on the way into or out of the
 * letters: opening a letter reads it, so the navigation's unread count changes there.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  defaultShouldRevalidate || currentUrl.pathname.startsWith("/letters") || nextUrl.pathname.startsWith("/letters");

/**
 * What this browser forgets before a sign-out leaves: the event-day sheet's offline copy and every
 * form draft. The drafts' module is fetched then, not with every page: the bundler kept it in a
 * file with the forms' own code, which every page then loaded.
 */
const forgetOnSignOut = () =>
  Promise.all([
    forgetOfflineSheets(),
    import("~/features/submissions/use-event-draft").then(
      (drafts) => drafts.forgetAllDrafts(),
      () => undefined, // A file the site no longer has (a new version since the page loaded): the sign-out goes on.
    ),
  ]);

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  // A page the server alone draws sends its own script instead of the app's (web/page-script.ts).
  const pageScript = pageScriptOf(useMatches());
  // Before anything below renders a time; the same value on every request of this process.
  if (data?.clubTimeZone) setClubTimeZone(data.clubTimeZone);
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        {/* Marks that scripts run, before first paint, so notes for script-less browsers stay hidden. */}
        <script
          nonce={nonce || undefined}
          dangerouslySetInnerHTML={{ __html: "document.documentElement.classList.add('js')" }}
        />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#14100c" />
        <Meta />
        <Links />
      </head>
      <body>
        <a
          href="#main"
          className="sr-only z-50 rounded bg-brass px-4 py-2 text-ink focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          Skip to content
        </a>
        <SiteHeader
          user={data?.user ?? null}
          unreadLetters={data?.unreadLetters ?? null}
          beforeSignOut={forgetOnSignOut}
        />
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          {children}
        </main>
        <SiteFooter social={data?.social} />
        {pageScript ? (
          <script type="module" src={pageScript} nonce={nonce || undefined} />
        ) : (
          <>
            <ScrollRestoration nonce={nonce || undefined} />
            <Scripts nonce={nonce || undefined} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  useInAppLinks();
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <SiteErrorPage error={error} />;
}
