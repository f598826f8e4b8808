import { ChevronDown, Menu } from "lucide-react";
import { Form, Link, NavLink } from "react-router";
import { Disclosure } from "~/components/Disclosure";
import { canUseTools, formLinksFor, PUBLIC_LINKS, type NavLink as NavItem, type SessionUser } from "~/lib/navigation";

const linkClass = ({ isActive }: { isActive: boolean }) =>
  [
    "block rounded px-3 py-2 text-parchment no-underline hover:bg-ash hover:text-brass hover:no-underline",
    isActive ? "text-brass underline decoration-2 underline-offset-8" : "",
  ].join(" ");

function NavItems({ user, layout }: { user: SessionUser | null; layout: "bar" | "stack" }) {
  const itemClass = layout === "bar" ? "" : "border-b border-timber/60 last:border-0";
  const links: NavItem[] = user
    ? [...PUBLIC_LINKS, { to: "/events", label: "Events" }]
    : PUBLIC_LINKS;
  return (
    <ul className={layout === "bar" ? "flex items-center gap-1" : "flex flex-col"}>
      {links.map((link) => (
        <li key={link.to} className={itemClass}>
          <NavLink to={link.to} className={linkClass}>
            {link.label}
          </NavLink>
        </li>
      ))}
      {user ? (
        <>
          <li className={itemClass}>
            <Disclosure
              className="group relative"
              summaryClassName="flex list-none items-center gap-1 rounded px-3 py-2 text-parchment hover:bg-ash hover:text-brass"
              summary={
                <>
                  Forms <ChevronDown aria-hidden="true" className="size-4 transition-transform group-open:rotate-180" />
                </>
              }
              panelClassName={
                layout === "bar"
                  ? "absolute right-0 mt-2 w-56 rounded-md border border-timber bg-soot p-1 shadow-xl shadow-black/60"
                  : "pl-4"
              }
            >
              <ul>
                {formLinksFor(user.role).map((link) => (
                  <li key={link.to}>
                    <NavLink to={link.to} className={linkClass}>
                      {link.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </Disclosure>
          </li>
          {canUseTools(user.role) ? (
            <li className={itemClass}>
              <NavLink to="/tools" className={linkClass}>
                Tools
              </NavLink>
            </li>
          ) : null}
          <li className={itemClass}>
            <NavLink to="/profile" className={linkClass}>
              Profile
            </NavLink>
          </li>
          <li className={itemClass}>
            <Form method="post" action="/logout">
              <button type="submit" className="w-full rounded px-3 py-2 text-left text-parchment hover:bg-ash hover:text-brass">
                Sign Out
              </button>
            </Form>
          </li>
        </>
      ) : (
        <li className={layout === "bar" ? "ml-2" : "p-3"}>
          <Link to="/auth" className="btn btn-primary w-full">
            Login / Sign Up
          </Link>
        </li>
      )}
    </ul>
  );
}

export function SiteHeader({ user }: { user: SessionUser | null }) {
  return (
    <header className="sticky top-0 z-40 border-b border-timber bg-ink/95 backdrop-blur">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-2">
        <Link to="/" className="font-display text-2xl text-brass no-underline hover:no-underline">
          Hopewell
        </Link>
        <nav aria-label="Main" className="hidden md:block">
          <NavItems user={user} layout="bar" />
        </nav>
        <Disclosure
          className="md:hidden"
          summaryClassName="flex min-h-11 list-none items-center gap-2 rounded-md border border-timber px-3 py-2 text-parchment hover:text-brass"
          summary={
            <>
              <Menu aria-hidden="true" className="size-5" />
              Menu
            </>
          }
          panelClassName="absolute inset-x-0 top-full border-b border-timber bg-soot px-2 pb-2 shadow-xl shadow-black/60"
        >
          <nav aria-label="Main">
            <NavItems user={user} layout="stack" />
          </nav>
        </Disclosure>
      </div>
    </header>
  );
}
