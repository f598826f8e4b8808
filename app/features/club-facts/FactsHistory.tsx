import { Form } from "react-router";
import { SubmitButton } from "~/components/ui/SubmitButton";
import { formatClubTime } from "~/lib/dates";
import type { HistoryRow } from "./club-facts.server";
import { WhatChanged } from "./WhatChanged";

/**
 * The saved versions of one of the club's facts, newest first, each with a way back to it; then
 * the site's starting version (`starting` names it: "The starting FAQ").
 */
export function FactsHistory({
  history,
  version,
  busy,
  starting,
}: {
  history: HistoryRow[];
  version: number;
  busy: boolean;
  starting: string;
}) {
  return (
    <section aria-labelledby="history-heading" className="flex flex-col gap-3">
      <h2 id="history-heading" className="text-2xl">
        History
      </h2>
      {history.length === 0 ? (
        <p className="text-dust">No change has been saved: the site shows what it shipped with.</p>
      ) : null}
      <ol className="flex flex-col gap-2">
        {history.map((row) => (
          <li
            key={row.version}
            className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-timber/70 p-3"
          >
            <p>
              <span className="font-bold">Version {row.version}</span>
              {` · ${formatClubTime(row.at)} · ${row.by} · ${row.size}`}
              {row.restoredFrom !== null ? ` · brought back version ${row.restoredFrom}` : ""}
              {row.version === version ? " · shown now" : ""}
            </p>
            {row.version === version ? null : (
              <RestoreButton restore={row.version} name={`version ${row.version}`} version={version} busy={busy} />
            )}
            {row.changes ? <WhatChanged label={`in version ${row.version}`} changes={row.changes} /> : null}
          </li>
        ))}
        {history.length > 0 ? (
          <li className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-timber/70 p-3">
            <p>
              <span className="font-bold">{starting}</span> · as the site first shipped it
            </p>
            <RestoreButton
              restore={0}
              name={starting.charAt(0).toLowerCase() + starting.slice(1)}
              version={version}
              busy={busy}
            />
          </li>
        ) : null}
      </ol>
    </section>
  );
}

function RestoreButton({
  restore,
  name,
  version,
  busy,
}: {
  restore: number;
  name: string;
  version: number;
  busy: boolean;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="restore" value={restore} />
      <SubmitButton
        name="intent"
        value="restore"
        className="btn btn-secondary"
        busy={busy}
        aria-label={`Bring back ${name}`}
      >
        Bring back
      </SubmitButton>
    </Form>
  );
}
