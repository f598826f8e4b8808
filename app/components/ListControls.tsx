import { Form, useSearchParams } from "react-router";
import { Link } from "~/components/Link";
import { countOf } from "~/lib/plural";
import { useAddressValue } from "~/lib/use-address-value";

/**
 * A GET search form for a list: works without JavaScript and keeps the tools tab, if given, and
 * whatever else the list is narrowed by (`keep`: a queue's filter). The box shows the address's
 * search again after each navigation.
 */
export function SearchForm({
  tab,
  search,
  label,
  keep = {},
}: {
  tab?: string;
  search: string;
  label: string;
  keep?: Record<string, string | null | undefined>;
}) {
  const id = `${tab ?? "list"}-search`;
  const [value, setValue] = useAddressValue(search);
  return (
    <Form method="get" role="search" aria-label={label} className="flex gap-2">
      {tab ? <input type="hidden" name="tab" value={tab} /> : null}
      {Object.entries(keep).map(([name, kept]) =>
        kept ? <input key={name} type="hidden" name={name} value={kept} /> : null,
      )}
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        name="q"
        type="search"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        placeholder={label}
        className="w-full rounded-md border border-timber bg-ink px-3 py-2"
      />
      <button type="submit" className="btn btn-secondary">
        Search
      </button>
    </Form>
  );
}

/** "N things matching …", read out when it changes. Give `plural` when the noun does not just add an s. */
export function ResultCount({
  total,
  noun,
  plural,
  search,
}: {
  total: number;
  noun: string;
  plural?: string;
  search?: string;
}) {
  return (
    <p className="text-sm text-dust" aria-live="polite">
      {`${countOf(total, noun, plural)}${search ? ` matching “${search}”` : ""}`}
    </p>
  );
}

/** Previous / next links that keep the rest of the query. A page past the end (a typed or old link) leads back to the last. */
export function Pager({ page, lastPage }: { page: number; lastPage: number }) {
  const [params] = useSearchParams();
  const pastTheEnd = page > lastPage;
  if (lastPage <= 0 && !pastTheEnd) return null;
  const link = (to: number) => `?${new URLSearchParams({ ...Object.fromEntries(params), page: String(to) })}`;
  return (
    <nav aria-label="Pages" className="flex items-center justify-between">
      {pastTheEnd ? (
        <Link to={link(lastPage)}>Last page</Link>
      ) : page > 0 ? (
        <Link to={link(page - 1)}>Previous</Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-dust">
        {pastTheEnd ? `Past the last page (${lastPage + 1})` : `Page ${page + 1} of ${lastPage + 1}`}
      </span>
      {page < lastPage ? <Link to={link(page + 1)}>Next</Link> : <span />}
    </nav>
  );
}
