import { Icon } from "~/components/Icon";
import { PASSWORD_RULES } from "./auth.form";

/** The password requirements, each ticked as the typed password meets it. */
export function PasswordChecklist({ id, password }: { id: string; password: string }) {
  return (
    <div id={id} className="rounded-md border border-timber/70 bg-ink/60 px-4 py-3 text-sm">
      <p className="mb-1 text-dust">Your password needs:</p>
      <ul aria-live="polite" className="space-y-1">
        {PASSWORD_RULES.map((rule) => {
          const met = rule.test(password);
          return (
            <li key={rule.id} data-met={met} className={`flex items-center gap-2 ${met ? "text-sage" : "text-dust"}`}>
              {met ? <Icon name="check" className="size-4" /> : <Icon name="x" className="size-4" />}
              {rule.label}
              <span className="sr-only">{met ? " (done)" : " (not yet)"}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
