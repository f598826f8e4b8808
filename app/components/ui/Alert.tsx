import { CircleAlert, CircleCheck } from "lucide-react";
import type { ReactNode } from "react";

/** A message about the whole form. Errors interrupt a screen reader; successes wait their turn. */
export function Alert({ kind, children }: { kind: "error" | "success"; children: ReactNode }) {
  const Icon = kind === "error" ? CircleAlert : CircleCheck;
  return (
    <div
      role={kind === "error" ? "alert" : "status"}
      className={`flex items-start gap-3 rounded-md border px-4 py-3 ${
        kind === "error" ? "border-blood/70 bg-blood/10 text-parchment" : "border-sage/70 bg-sage/10 text-parchment"
      }`}
    >
      <Icon aria-hidden="true" className={`mt-0.5 size-5 shrink-0 ${kind === "error" ? "text-blood" : "text-sage"}`} />
      <p>{children}</p>
    </div>
  );
}
