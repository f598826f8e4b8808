import { Icon } from "~/components/Icon";
import { PASSWORD_RULES } from "./password-rules";

/**
 * The password requirements, none met yet: password-behaviour.ts ticks each as the typed
 * password meets it.
 */
export function PasswordChecklist({ id }: { id: string }) {
  return (
    <div id={id} className="rounded-md border border-timber/70 bg-ink/60 px-4 py-3 text-sm">
      <p className="mb-1 text-dust">Your password needs:</p>
      <ul aria-live="polite" className="space-y-1">
        {PASSWORD_RULES.map((rule) => (
          <li key={rule.id} data-rule={rule.id} data-met="false" className="flex items-center gap-2 text-dust">
            <Icon name="x" className="size-4" />
            {rule.label}
            <span data-rule-status="" className="sr-only">
              {" (not yet)"}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
