import { inputClass } from "~/components/ui/Field";
import { PASSWORD_LINK_HOURS } from "~/identity/link-lifetimes";

/** The one-time password link just made, shown once for the manager to hand over. */
export function PasswordLinkPanel({ name, link }: { name: string; link: string }) {
  return (
    <section aria-labelledby="link-title" className="flex flex-col gap-3 rounded-md border-2 border-brass p-4">
      <h2 id="link-title" className="text-2xl">
        One-time password link
      </h2>
      <p>
        Hand this link to {name} yourself, in person or by a message you trust. It lets them choose a new password,
        works once, within {PASSWORD_LINK_HOURS === 1 ? "the hour" : `${PASSWORD_LINK_HOURS} hours`}, and is shown only
        now: it is not emailed, logged or kept.
      </p>
      <label htmlFor="password-link" className="font-bold">
        Link for {name}
      </label>
      <input
        id="password-link"
        readOnly
        value={link}
        className={`${inputClass} font-mono text-sm`}
        onFocus={(event) => event.currentTarget.select()}
      />
    </section>
  );
}
