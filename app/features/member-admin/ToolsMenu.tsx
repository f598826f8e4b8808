import { Link } from "~/components/Link";

const item =
  "flex min-h-11 items-center whitespace-nowrap md:whitespace-normal rounded px-3 py-2 text-parchment no-underline hover:no-underline";

/**
 * The tools' menu. On a phone it takes little of the first screen: the tabs wrap as a row of
 * buttons (so the current one is always in sight) and the other tools are one row that scrolls
 * sideways, its cut-off last button showing there is more. From the md width up it is a sidebar
 * as tall as its items, not as tall as the page.
 */
export function ToolsMenu<T extends string>({
  tabs,
  active,
  links,
}: {
  tabs: { id: T; label: string }[];
  active: T;
  links: [string, string][];
}) {
  return (
    <nav aria-label="Tools" className="panel flex min-w-0 flex-col gap-2 p-2 md:gap-1 md:p-3">
      <ul className="flex flex-wrap gap-1 md:flex-col">
        {tabs.map((t) => (
          <li key={t.id}>
            <Link
              to={`?tab=${t.id}`}
              aria-current={active === t.id ? "page" : undefined}
              className={`${item} ${active === t.id ? "bg-rust-dark" : "bg-ash/70 hover:bg-ash md:bg-transparent"}`}
            >
              {t.label}
            </Link>
          </li>
        ))}
      </ul>
      {links.length > 0 ? (
        <ul
          aria-label="More tools"
          className="flex gap-1 overflow-x-auto overscroll-x-contain border-t border-timber pt-2 md:flex-col md:overflow-visible"
        >
          {links.map(([to, label]) => (
            <li key={to} className="shrink-0">
              <Link
                to={to}
                className={`${item} border border-timber hover:bg-ash hover:text-brass md:border-transparent`}
              >
                {label}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </nav>
  );
}
