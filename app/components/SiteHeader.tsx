import { Icon } from "~/components/Icon";
import type { ReactNode } from "react";
import { useLocation } from "react-router";
import { Disclosure } from "~/components/Disclosure";
import { canUseTools, formLinksFor, PUBLIC_LINKS, type NavLink as NavItem, type SessionUser } from "~/lib/navigation";

const LINK_CLASS =
  "block rounded px-3 py-2 text-parchment no-underline hover:bg-ash hover:text-brass hover:no-underline";
const CURRENT_LINK_CLASS = `${LINK_CLASS} text-brass underline decoration-2 underline-offset-8`;

/**
 * What the browser must forget before the sign-out post leaves (root.tsx hands in the event-day
 * sheet's offline copy, so a browser that ignores the response's Clear-Site-Data keeps nothing
 * either). Handed in rather than imported: the shell knows no feature.
 */
export type BeforeSignOut = () => Promise<unknown>;

/** Runs `beforeSignOut`, then sends the sign-out post; at most a second's wait. */
function signOutAfter(beforeSignOut: BeforeSignOut) {
  return (event: React.FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    event.preventDefault();
    void Promise.race([beforeSignOut(), new Promise((resolve) => setTimeout(resolve, 1000))]).then(() => form.submit());
  };
}

/** The page shown, or a page under it (so "Events" stays marked on /events/manage). */
function isCurrent(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}

/**
 * The header is on every page, with its links twice (bar and phone menu), so they are
 * plain anchors rather than router links, which run about a dozen hooks each: that
 * was a tenth of a signed-in page's server time. SiteHeader makes their clicks
 * navigate within the app.
 */
function HeaderLink({
  to,
  pathname,
  tall = false,
  children,
}: {
  to: string;
  pathname: string;
  /** In the phone menu: a whole touch target high (44 px). */
  tall?: boolean;
  children: ReactNode;
}) {
  const current = isCurrent(pathname, to);
  return (
    <a
      href={to}
      data-in-app=""
      className={`${current ? CURRENT_LINK_CLASS : LINK_CLASS}${tall ? " flex min-h-11 items-center" : ""}`}
      aria-current={current ? "page" : undefined}
    >
      {children}
    </a>
  );
}

/** How many letters wait unread, read out with its meaning. */
function UnreadBadge({ count, testId }: { count: number; testId?: string }) {
  return (
    <span
      data-testid={testId}
      className="min-w-5 rounded-full bg-rust px-1.5 text-center text-sm leading-5 font-bold text-parchment"
    >
      {count}
      <span className="sr-only">{count === 1 ? " unread letter" : " unread letters"}</span>
    </span>
  );
}

/**
 * The member's letter box, with the count of letters they have not read. On the bar it is an
 * envelope (named for screen readers) until there is room for the word.
 */
function LettersLink({
  unread,
  pathname,
  layout,
}: {
  unread: number | null;
  pathname: string;
  layout: "bar" | "stack";
}) {
  const current = isCurrent(pathname, "/letters");
  const count = unread ?? 0;
  return (
    <a
      href="/letters?tab=box"
      data-in-app=""
      className={`${current ? CURRENT_LINK_CLASS : LINK_CLASS} flex items-center gap-1.5${layout === "stack" ? " min-h-11" : ""}`}
      aria-current={current ? "page" : undefined}
    >
      <Icon name="mail" className="size-5 shrink-0" />
      <span className={layout === "bar" ? "sr-only lg:not-sr-only" : undefined}>Letters</span>
      {count > 0 ? <UnreadBadge count={count} testId="unread-letters" /> : null}
    </a>
  );
}

/**
 * The managers' messages to the member, emailed or not (routes/member/notices.tsx). On the bar,
 * like the letters, a megaphone (named for screen readers) until there is room for the word.
 */
function NoticesLink({ pathname, layout }: { pathname: string; layout: "bar" | "stack" }) {
  const current = isCurrent(pathname, "/notices");
  return (
    <a
      href="/notices"
      data-in-app=""
      className={`${current ? CURRENT_LINK_CLASS : LINK_CLASS} flex items-center gap-1.5${layout === "stack" ? " min-h-11" : ""}`}
      aria-current={current ? "page" : undefined}
    >
      <Icon name="megaphone" className="size-5 shrink-0" />
      <span className={layout === "bar" ? "sr-only lg:not-sr-only" : undefined}>Notices</span>
    </a>
  );
}

function NavItems({
  user,
  unreadLetters,
  pathname,
  layout,
  beforeSignOut,
}: {
  user: SessionUser | null;
  unreadLetters: number | null;
  pathname: string;
  layout: "bar" | "stack";
  beforeSignOut: BeforeSignOut;
}) {
  const itemClass = layout === "bar" ? "" : "border-b border-timber/60 last:border-0";
  const tall = layout === "stack";
  const links: NavItem[] = user ? [...PUBLIC_LINKS, { to: "/events", label: "Events" }] : PUBLIC_LINKS;
  return (
    <ul className={layout === "bar" ? "flex items-center gap-1" : "flex flex-col"}>
      {links.map((link) => (
        <li key={link.to} className={itemClass}>
          <HeaderLink to={link.to} pathname={pathname} tall={tall}>
            {link.label}
          </HeaderLink>
        </li>
      ))}
      {user ? (
        <>
          <li className={itemClass}>
            {layout === "bar" ? (
              <FormsMenu user={user} pathname={pathname} />
            ) : (
              <FormsListed user={user} pathname={pathname} />
            )}
          </li>
          {canUseTools(user.role) ? (
            <li className={itemClass}>
              <HeaderLink to="/tools" pathname={pathname} tall={tall}>
                Tools
              </HeaderLink>
            </li>
          ) : null}
          <li className={itemClass}>
            <LettersLink unread={unreadLetters} pathname={pathname} layout={layout} />
          </li>
          <li className={itemClass}>
            <NoticesLink pathname={pathname} layout={layout} />
          </li>
          <li className={itemClass}>
            <HeaderLink to="/profile" pathname={pathname} tall={tall}>
              Profile
            </HeaderLink>
          </li>
          <li className={itemClass}>
            {/* A whole-page post: signing out leaves nothing of the member's pages in the browser's memory. */}
            <form method="post" action="/logout" onSubmit={signOutAfter(beforeSignOut)}>
              <button
                type="submit"
                className={`w-full rounded px-3 py-2 text-left text-parchment hover:bg-ash hover:text-brass${tall ? " min-h-11" : ""}`}
              >
                Sign Out
              </button>
            </form>
          </li>
        </>
      ) : (
        <li className={layout === "bar" ? "ml-2" : "p-3"}>
          <a href="/auth" data-in-app="" className="btn btn-primary w-full">
            Login / Sign Up
          </a>
        </li>
      )}
    </ul>
  );
}

/** On the bar, the member's forms drop down from "Forms" (a <details>, so it opens without scripts too). */
function FormsMenu({ user, pathname }: { user: SessionUser; pathname: string }) {
  return (
    <Disclosure
      className="group relative"
      summaryClassName="flex list-none items-center gap-1 rounded px-3 py-2 text-parchment hover:bg-ash hover:text-brass"
      summary={
        <>
          Forms <Icon name="chevron-down" className="size-4 transition-transform group-open:rotate-180" />
        </>
      }
      panelClassName="absolute right-0 mt-2 w-56 rounded-md border border-timber bg-soot p-1 shadow-xl shadow-black/60"
    >
      <ul>
        {formLinksFor(user.role).map((link) => (
          <li key={link.to}>
            <HeaderLink to={link.to} pathname={pathname}>
              {link.label}
            </HeaderLink>
          </li>
        ))}
      </ul>
    </Disclosure>
  );
}

/**
 * In the phone menu the forms are listed at once under their heading: a post-event letter is
 * two taps away (Menu, then the form) rather than three behind a second menu.
 */
function FormsListed({ user, pathname }: { user: SessionUser; pathname: string }) {
  return (
    <div className="py-1">
      <span id="phone-menu-forms" className="block px-3 pt-1 text-sm tracking-wide text-dust uppercase">
        Forms
      </span>
      <ul aria-labelledby="phone-menu-forms" className="pl-3">
        {formLinksFor(user.role).map((link) => (
          <li key={link.to}>
            <HeaderLink to={link.to} pathname={pathname} tall>
              {link.label}
            </HeaderLink>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function SiteHeader({
  user,
  unreadLetters = null,
  beforeSignOut,
}: {
  user: SessionUser | null;
  unreadLetters?: number | null;
  beforeSignOut: BeforeSignOut;
}) {
  const { pathname } = useLocation();
  return (
    <header className="sticky top-0 z-40 border-b border-timber bg-ink/95 backdrop-blur">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-2">
        <a href="/" data-in-app="" className="font-display text-2xl text-brass no-underline hover:no-underline">
          Hopewell
        </a>
        <nav aria-label="Main" className="hidden md:block">
          <NavItems
            user={user}
            unreadLetters={unreadLetters}
            pathname={pathname}
            layout="bar"
            beforeSignOut={beforeSignOut}
          />
        </nav>
        <Disclosure
          className="md:hidden"
          summaryClassName="flex min-h-11 list-none items-center gap-2 rounded-md border border-timber px-3 py-2 text-parchment hover:text-brass"
          summary={
            <>
              <Icon name="menu" className="size-5" />
              Menu
              {/* The letters' count is inside the menu; the closed menu says there is something to read. */}
              {unreadLetters ? <UnreadBadge count={unreadLetters} /> : null}
            </>
          }
          // As tall as the screen at most, scrolling within: the header stays put, so a longer menu's foot would be out of reach.
          panelClassName="absolute inset-x-0 top-full max-h-[calc(100dvh-4rem)] overflow-y-auto overscroll-contain border-b border-timber bg-soot px-2 pb-2 shadow-xl shadow-black/60"
        >
          <nav aria-label="Main">
            <NavItems
              user={user}
              unreadLetters={unreadLetters}
              pathname={pathname}
              layout="stack"
              beforeSignOut={beforeSignOut}
            />
          </nav>
        </Disclosure>
      </div>
    </header>
  );
}
