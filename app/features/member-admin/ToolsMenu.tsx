import { Link } from "~/components/Link";

/** A tool of its own page; `waiting` is how many of its entries are new (a review page's). */
export type ToolLink = { to: string; label: string; waiting?: number };

const item = "flex min-h-11 items-center rounded px-3 py-2 text-parchment no-underline hover:no-underline";

/**
 * The tools' menu. On a phone every tool is in sight without scrolling sideways: the tabs wrap as
 * a row of buttons (so the current one is always in sight) and the other tools are a grid of two
 * columns, each name whole. From the md width up it is a sidebar as tall as its items, not as
 * tall as the page.
 */
export function ToolsMenu<T extends string>({
  tabs,
  active,
  links,
}: {
  tabs: { id: T; label: string }[];
  active: T;
  links: ToolLink[];
}) {
  return (
    <nav aria-label="Tools" className="panel flex min-w-0 flex-col gap-2 p-2 md:gap-1 md:p-3">
      <ul className="flex flex-wrap gap-1 md:flex-col">
        {tabs.map((t) => (
          <li key={t.id}>
            <Link
              to={`?tab=${t.id}`}
              aria-current={active === t.id ? "page" : undefined}
              className={`${item} whitespace-nowrap md:whitespace-normal ${active === t.id ? "bg-rust-dark" : "bg-ash/70 hover:bg-ash md:bg-transparent"}`}
            >
              {t.label}
            </Link>
          </li>
        ))}
      </ul>
      {links.length > 0 ? (
        <ul aria-label="More tools" className="grid grid-cols-2 gap-1 border-t border-timber pt-2 md:grid-cols-1">
          {links.map(({ to, label, waiting }) => (
            <li key={to} className="flex min-w-0">
              <Link
                to={to}
                className={`${item} w-full flex-wrap gap-x-1 border border-timber text-sm leading-tight hover:bg-ash hover:text-brass md:border-transparent md:text-base md:leading-normal`}
              >
                <span>{label}</span>
                {/* The count stays in the link's name: "View PELs (12 new)". */}
                {waiting ? <span className="text-brass">{` (${waiting.toLocaleString("en-US")} new)`}</span> : null}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </nav>
  );
}
