import { Link } from "~/components/Link";

/**
 * Side tabs that are links (?tab=…, or a page of their own given by `to`), so each tab has an
 * address and works without JavaScript.
 */
export function SideTabLinks<T extends string>({
  tabs,
  active,
}: {
  tabs: { id: T; label: string; to?: string }[];
  active: T;
}) {
  return (
    <>
      {tabs.map((t) => (
        <Link
          key={t.id}
          to={t.to ?? `?tab=${t.id}`}
          aria-current={active === t.id ? "page" : undefined}
          className={`rounded px-3 py-2 whitespace-nowrap no-underline hover:no-underline ${active === t.id ? "bg-rust-dark text-parchment" : "text-parchment hover:bg-ash"}`}
        >
          {t.label}
        </Link>
      ))}
    </>
  );
}
