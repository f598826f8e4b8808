import { data, Form, useNavigation } from "react-router";
import { pageParam } from "~/lib/paging";
import type { Route } from "./+types/outbox";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { Pager, ResultCount } from "~/components/ListControls";
import { SavedNotice } from "~/components/SavedNotice";
import { Alert } from "~/components/ui/Alert";
import { readForm } from "~/web/forms/kernel";
import { formatClubTime } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import { config } from "~/platform/config.server";
import { failSafely } from "~/web/actions.server";
import { requireAccess } from "~/web/guards.server";
import {
  discardMessage,
  listUnsentMessages,
  OUTBOX_PAGE_SIZE,
  retryMessage,
  type OutboxEntry,
} from "~/platform/outbox/outbox-view.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAccess(context, request, "manager");
  const page = pageParam(request.url);
  const smtpConfigured = Boolean(config().mail.smtpUrl);
  const found = await listUnsentMessages(page);
  return { ...found, page, lastPage: Math.max(0, Math.ceil(found.total / OUTBOX_PAGE_SIZE) - 1), smtpConfigured };
}

type ActionData = { ok?: string; message?: string; at?: number };

export async function action({ request, context }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  const fields = await readForm(request);
  if (fields.intent !== "retry" && fields.intent !== "discard")
    return data<ActionData>({ message: "That action is not available here." }, { status: 400 });
  if (!isUuid(fields.id))
    return data<ActionData>({ message: "That message is no longer in the outbox." }, { status: 404 });
  const id = fields.id;
  return failSafely<ActionData>(
    "changing an outbox message",
    { message: "Failed to update the message. Please try again." },
    async () => {
      const done = fields.intent === "retry" ? await retryMessage(manager, id) : await discardMessage(manager, id);
      if (!done)
        return data(
          {
            message:
              fields.intent === "retry"
                ? "That message is no longer in the outbox, or a worker is sending it."
                : "That message is no longer in the outbox.",
          },
          { status: 404 },
        );
      return data({
        ok: fields.intent === "retry" ? "The message will be tried again shortly." : "The message was discarded.",
        at: Date.now(),
      });
    },
  );
}

/** How each kind of message is named: in its label for screen readers, its tag, and its third line. */
const KINDS: Record<OutboxEntry["kind"], { label: string; tag: string; about: string }> = {
  email: { label: "email to", tag: "Email", about: "Subject" },
  sms: { label: "text message to", tag: "Text message", about: "Message" },
  discord: { label: "notice to", tag: "Discord", about: "Opening" },
  "club-message": { label: "managers' message to", tag: "Message to members", about: "Subject" },
};

function Message({ entry, busy }: { entry: OutboxEntry; busy: boolean }) {
  const kind = KINDS[entry.kind];
  const label = `${kind.label} ${entry.recipient}`;
  return (
    <li className="flex flex-col gap-2 py-4">
      <div className="flex flex-wrap items-baseline gap-x-3">
        <span
          className={`rounded px-2 py-0.5 text-sm font-bold ${entry.status === "failed" ? "bg-blood/20 text-parchment" : "bg-ash text-dust"}`}
        >
          {entry.status === "failed" ? "Failed" : "Waiting"}
        </span>
        <span className="text-sm text-dust">{kind.tag}</span>
      </div>
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[9rem_1fr]">
        <dt className="text-dust">{entry.kind === "discord" ? "Channel" : "Recipient"}</dt>
        <dd className="break-all">{entry.recipient}</dd>
        <dt className="text-dust">{kind.about}</dt>
        <dd className="break-words">{entry.subject}</dd>
        <dt className="text-dust">Attempts</dt>
        <dd>{entry.attempts}</dd>
        <dt className="text-dust">Last error</dt>
        <dd className="break-words">{entry.lastError ?? "None"}</dd>
        <dt className="text-dust">Next try</dt>
        <dd>
          {entry.inHand
            ? "Taken for sending, in turn"
            : entry.nextTry
              ? formatClubTime(entry.nextTry)
              : "Not until retried"}
        </dd>
        <dt className="text-dust">Queued</dt>
        <dd>{formatClubTime(entry.createdAt)}</dd>
      </dl>
      <div className="flex flex-wrap gap-2">
        {/* A message a worker holds goes in its turn; freeing it could let another instance send it twice. */}
        {entry.inHand ? null : (
          <Form method="post">
            <input type="hidden" name="id" value={entry.id} />
            <button type="submit" name="intent" value="retry" className="btn btn-primary" disabled={busy}>
              {entry.status === "failed" ? "Retry" : "Try now"}
              <span className="sr-only"> the {label}</span>
            </button>
          </Form>
        )}
        <Form method="post">
          <input type="hidden" name="id" value={entry.id} />
          <button type="submit" name="intent" value="discard" className="btn btn-secondary" disabled={busy}>
            Discard<span className="sr-only"> the {label}</span>
          </button>
        </Form>
      </div>
    </li>
  );
}

/** Messages not yet sent, for managers: what failed and why, what is waiting and until when. */
export default function Outbox({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-center text-5xl">Outbox</h1>
      <hr className="divider my-6" />
      <div className="panel flex flex-col gap-4">
        <p className="text-sm text-dust">
          Emails, text messages, Discord notices and the copies of managers&apos; messages to members that have not been
          sent yet. Failed messages are not tried again until you retry them; waiting messages are tried again on their
          own. Message texts are not shown, because emails can hold password-reset links.
        </p>
        {loaderData.smtpConfigured ? null : (
          <Alert kind="error">No SMTP server is configured (SMTP_URL), so emails wait here until one is.</Alert>
        )}
        {actionData?.ok ? <SavedNotice key={actionData.at} message={actionData.ok} /> : null}
        {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
        <ResultCount total={loaderData.total} noun="unsent message" />
        {loaderData.total === 0 ? <p>Nothing is waiting to be sent.</p> : null}
        <ul className="flex flex-col divide-y divide-timber/60">
          {loaderData.rows.map((entry) => (
            <Message key={entry.id} entry={entry} busy={busy} />
          ))}
        </ul>
        <Pager page={loaderData.page} lastPage={loaderData.lastPage} />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Outbox · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Outbox", "Failed to load the outbox");
