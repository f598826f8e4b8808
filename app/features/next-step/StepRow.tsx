import type { ReactNode } from "react";
import { Icon } from "~/components/Icon";
import { Link } from "~/components/Link";
import type { IconName } from "~/components/icon-shapes";

const ROW =
  "flex min-h-11 items-center gap-3 rounded-md border border-timber bg-ash/60 px-4 text-parchment no-underline hover:border-brass hover:bg-ash hover:no-underline";

/**
 * One thing for the member to do or look at, the whole row a link: on a phone the target is the
 * width of the screen, and a screen reader reads the title and the detail as the link's name.
 * `compact`: the detail (a count) on the title's line, for lists of many rows.
 */
export function StepRow({
  to,
  icon,
  title,
  detail,
  tone = "brass",
  compact = false,
  testId,
}: {
  to: string;
  icon: IconName;
  title: ReactNode;
  detail?: ReactNode;
  tone?: "brass" | "rust" | "sage";
  compact?: boolean;
  testId?: string;
}) {
  const toneClass = tone === "rust" ? "text-blood" : tone === "sage" ? "text-sage" : "text-brass";
  return (
    <Link to={to} className={`${ROW} ${compact ? "py-2" : "py-3"}`} data-testid={testId}>
      <Icon name={icon} className={`size-6 shrink-0 ${toneClass}`} />
      <span
        className={compact ? "flex min-w-0 flex-1 flex-wrap items-baseline justify-between gap-x-3" : "min-w-0 flex-1"}
      >
        <span className={`block font-bold ${toneClass}`}>{title}</span>
        {detail ? <span className={compact ? "text-dust" : "block text-dust"}>{detail}</span> : null}
      </span>
      <Icon name="chevron-down" className="size-5 shrink-0 -rotate-90 text-dust" />
    </Link>
  );
}

/** A part of the member's panel: a heading and what is under it. */
export function StepGroup({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex min-w-0 flex-col gap-2">
      <h3 id={id} className="font-display text-lg tracking-wide text-dust uppercase">
        {title}
      </h3>
      {children}
    </section>
  );
}
