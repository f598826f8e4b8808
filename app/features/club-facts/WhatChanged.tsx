import type { FactChanges } from "./changes";

/** What a version added and removed, opened on demand: the audit's before and after, as lines. */
export function WhatChanged({ label, changes }: { label: string; changes: FactChanges }) {
  const { added, removed, reordered } = changes;
  const summary =
    added.length + removed.length === 0
      ? reordered
        ? "Only the order changed"
        : "Nothing changed"
      : [added.length ? `${added.length} added` : "", removed.length ? `${removed.length} removed` : ""]
          .filter(Boolean)
          .join(", ");
  return (
    <details className="w-full">
      <summary className="min-h-11 cursor-pointer py-2 text-brass">
        What changed<span className="sr-only"> {label}</span>: {summary}
      </summary>
      <div className="flex flex-col gap-2 text-sm">
        {removed.length ? <ChangedLines title="Before" lines={removed} /> : null}
        {added.length ? <ChangedLines title="After" lines={added} /> : null}
      </div>
    </details>
  );
}

function ChangedLines({ title, lines }: { title: string; lines: string[] }) {
  return (
    <div>
      <p className="font-bold">{title}</p>
      <ul className="list-disc pl-5 break-words">
        {lines.map((line, n) => (
          <li key={n}>{line}</li>
        ))}
      </ul>
    </div>
  );
}
