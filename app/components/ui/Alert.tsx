import { Icon } from "~/components/Icon";
import type { ReactNode } from "react";

const KINDS = {
  error: { glyph: "circle-alert", box: "border-blood/70 bg-blood/10", icon: "text-blood" },
  // Something was saved, but a person should look again: stays on the page until they move on.
  warning: { glyph: "triangle-alert", box: "border-brass/70 bg-brass/10", icon: "text-brass" },
  success: { glyph: "circle-check", box: "border-sage/70 bg-sage/10", icon: "text-sage" },
} as const;

/** A message about the whole form. Errors interrupt a screen reader; warnings and successes wait their turn. */
export function Alert({ kind, children }: { kind: keyof typeof KINDS; children: ReactNode }) {
  const { glyph, box, icon } = KINDS[kind];
  return (
    <div
      role={kind === "error" ? "alert" : "status"}
      className={`flex items-start gap-3 rounded-md border px-4 py-3 text-parchment ${box}`}
    >
      <Icon name={glyph} className={`mt-0.5 size-5 shrink-0 ${icon}`} />
      <p>{children}</p>
    </div>
  );
}
