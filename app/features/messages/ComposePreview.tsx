import { countOf } from "~/lib/plural";
import type { ComposePreview as Preview } from "./compose-preview.server";

/** The members a preview names, in a list that wraps on a narrow screen. */
function Names({ names, label }: { names: string[]; label: string }) {
  return (
    <ul aria-label={label} className="flex flex-wrap gap-x-4 gap-y-1">
      {names.map((name, index) => (
        <li key={`${index}-${name}`}>{name}</li>
      ))}
    </ul>
  );
}

/**
 * The preview of a message before it is sent: how many will receive it and who, who their
 * choices leave out and why, and the email as the first of them will read it (its subject, its
 * HTML part, its plain-text part).
 */
export function ComposePreview({ preview }: { preview: Preview }) {
  const { recipients, leftOut, email } = preview;
  return (
    <section aria-labelledby="preview-heading" className="panel flex flex-col gap-4">
      <h2 id="preview-heading" className="text-2xl">
        Preview: not sent yet
      </h2>
      <p>
        <span className="font-bold">{preview.label}</span>:{" "}
        {`${countOf(recipients.length, "member")} will receive it${leftOut.length > 0 ? `; ${leftOut.length} left out by their choices` : ""}.`}
      </p>
      {recipients.length > 0 ? (
        <Names names={recipients} label="Who will receive it" />
      ) : (
        <p className="text-dust">Nobody in this group will receive it.</p>
      )}
      {leftOut.length > 0 ? (
        <div className="flex flex-col gap-1">
          <h3 className="text-lg">Left out by their choices</h3>
          <ul className="flex flex-col gap-1">
            {leftOut.map((member, index) => (
              <li key={`${index}-${member.name}`}>
                {member.name}: <span className="text-dust">{member.reason}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {email ? (
        <div className="flex flex-col gap-3">
          <h3 className="text-lg">{`The email as ${email.to} will read it`}</h3>
          <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[6rem_1fr]">
            <dt className="text-dust">Subject</dt>
            <dd className="break-words">{email.subject}</dd>
          </dl>
          {/* The email's body: formattedTextHtml's safe subset and escaped names only (compose-preview.server.ts). */}
          <div
            className="prose-western rounded-md bg-parchment px-5 py-4 break-words text-ink [&_a]:text-rust-dark [&_a]:underline [&_h3]:mb-4 [&_h3]:text-xl [&_h3]:text-rust-dark [&>div>p:last-child]:mt-6 [&>div>p:last-child]:text-sm"
            data-testid="email-html"
            dangerouslySetInnerHTML={{ __html: email.html }}
          />
          <details>
            <summary className="cursor-pointer">The plain-text part</summary>
            <pre
              className="mt-2 overflow-x-auto rounded-md bg-ink p-4 text-sm whitespace-pre-wrap"
              data-testid="email-text"
            >
              {email.text}
            </pre>
          </details>
        </div>
      ) : null}
    </section>
  );
}
