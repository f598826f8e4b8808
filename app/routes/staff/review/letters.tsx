import { Form, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import type { Route } from "./+types/letters";
import { revalidateAfterConflict } from "~/web/revalidate";
import { Author } from "~/features/review/EventGroups";
import { SideTabLinks } from "~/components/SideTabs";
import { Pager, ResultCount, SearchForm } from "~/components/ListControls";
import { Alert } from "~/components/ui/Alert";
import { TextAreaField } from "~/components/ui/TextAreaField";
import { readForm } from "~/web/forms/kernel";
import { QUEUE_INTENTS } from "~/features/review/review-queue.form";
import { QueueEntry, QueueNotice, type QueueData } from "~/features/review/QueueEntry";
import { filterFields, filterQuery, QueueFilters } from "~/features/review/QueueFilters";
import { queueFilterOf } from "~/features/review/queue-filter.server";
import { answerQueueForm } from "~/features/review/queue-actions.server";
import { queueView } from "~/features/review/review-queue.server";
import type { ActionAnswer } from "~/web/actions.server";
import { LETTER_MESSAGES } from "~/features/letters/letters.messages";
import { LETTER_STATUS_FOR_STAFF, type LetterStatus, UNSIGNED } from "~/game/letters";
import { TEXTAREA_ROWS } from "~/game/rules";
import { formatClubTime } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import { lastPage, LETTER_COUNT_CAP, REVIEW_PAGE_SIZE } from "~/lib/paging";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { requireAccess } from "~/web/guards.server";
import { reviewQuery } from "~/features/review/event-reviews.server";
import {
  type LetterQueue,
  letterQueues,
  letterThreadForStaff,
  listLetters,
} from "~/features/review/letter-review.server";
import { answerStaffLetterForm, type StaffLetterAnswer } from "~/features/review/letter-actions.server";

function queueOf(url: string): LetterQueue {
  const tab = new URL(url).searchParams.get("tab");
  return tab === "held" || tab === "npc" ? tab : "all";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireAccess(context, request, "staff");
  const { search, page } = reviewQuery(request.url);
  const queue = queueOf(request.url);
  const filter = queueFilterOf(request.url);
  const thread = new URL(request.url).searchParams.get("thread");
  const [found, queues, threadLetters] = await Promise.all([
    isUuid(thread)
      ? Promise.resolve(null)
      : listLetters({ search, page, queue, filter: { filter, viewerId: staff.id } }),
    letterQueues(),
    isUuid(thread) ? letterThreadForStaff(thread) : Promise.resolve(null),
  ]);
  const rows = [...(threadLetters ?? found?.rows ?? [])].map((letter) => ({
    ...letter,
    // Each answer form is a new letter: its own key, so a resubmitted answer saves nothing new.
    answerKey: letter.status === "to_staff" ? crypto.randomUUID() : null,
  }));
  // Staff's own answers as NPCs are not entries of the queue: the letters members wrote are.
  const queueData = await queueView(
    "letter",
    rows.filter((letter) => !letter.fromNpc).map((letter) => letter.id),
    filter,
  );
  return {
    ...queueData,
    viewerId: staff.id,
    rows,
    total: found?.total ?? rows.length,
    moreThanCap: found?.moreThanCap ?? false,
    thread: threadLetters ? thread : null,
    search,
    page,
    queue,
    queues,
    lastPage: lastPage(found?.total ?? 0, REVIEW_PAGE_SIZE),
  };
}

/** A queue's form (take, hand back, status, reply), or one of the page's own: release or answer a letter. */
export async function action({ request, context }: Route.ActionArgs): Promise<ActionAnswer<StaffLetterAnswer>> {
  const staff = requireAccess(context, request, "staff");
  const values = await readForm(request);
  if (QUEUE_INTENTS.includes(values.intent ?? "")) return answerQueueForm(staff, "letter", values);
  return answerStaffLetterForm(staff, values);
}

type Letter = Route.ComponentProps["loaderData"]["rows"][number];

function Busy({ idle, busy, about }: { idle: string; busy: string; about?: string }) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <button type="submit" className="btn btn-primary self-start" disabled={submitting}>
      {submitting ? busy : idle}
      {about ? <span className="sr-only">{`: ${about}`}</span> : null}
    </button>
  );
}

function LetterEntry({
  letter,
  actionData,
  threadShown,
  queue,
}: {
  letter: Letter;
  actionData?: StaffLetterAnswer;
  threadShown: boolean;
  queue: QueueData;
}) {
  const mine = actionData?.letterId === letter.id ? actionData : undefined;
  const signed = letter.senderName ?? UNSIGNED;
  // Names the letter's controls for screen readers: one member may write twice to the same character.
  const about = `${letter.firstName} ${letter.lastName}'s letter to ${letter.recipient} of ${formatClubTime(letter.createdAt)}`;
  // A letter to an NPC is answered as that NPC, in a form that opens with the entry's queue forms.
  const answer =
    letter.status === "to_staff" && letter.answerKey ? (
      <Form method="post" noValidate className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="answer" />
        <input type="hidden" name="letterId" value={letter.id} />
        <input type="hidden" name="submissionKey" value={mine?.values?.submissionKey ?? letter.answerKey} />
        <TextAreaField
          label={`Answer as ${letter.recipient}`}
          hint={`Arrives in the writer's letter box, signed ${letter.recipient}, addressed to ${signed}.`}
          name="body"
          rows={TEXTAREA_ROWS.letter}
          maxLength={10_000}
          required
          defaultValue={mine?.values?.body}
          error={mine?.errors?.body}
        />
        <Busy idle="Send Answer" busy="Sending…" />
      </Form>
    ) : undefined;
  return (
    <article
      className="panel p-4"
      aria-labelledby={`letter-${letter.id}`}
      aria-describedby={`letter-${letter.id}-from`}
    >
      <div id={`letter-${letter.id}-from`}>
        <Author firstName={letter.firstName} lastName={letter.lastName} at={letter.createdAt} />
      </div>
      <h2 id={`letter-${letter.id}`} className="mt-1 text-xl">{`To ${letter.recipient}`}</h2>
      <p className="text-sm text-dust">
        {[
          letter.fromNpc ? `Answered as ${signed}` : letter.senderName ? `Signed ${signed}` : null,
          letter.toPlayer ? "to a player's character" : null,
          LETTER_STATUS_FOR_STAFF[letter.status as LetterStatus],
        ]
          .filter(Boolean)
          .join(" · ")}
      </p>
      <p className="mt-2 whitespace-pre-wrap">{letter.body}</p>
      {mine?.message ? (
        <div className="mt-3">
          <Alert kind="error">{mine.message}</Alert>
        </div>
      ) : null}
      {letter.status === "held" ? (
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="release" />
          <input type="hidden" name="letterId" value={letter.id} />
          <Busy idle="Release to letter box" busy="Releasing…" about={about} />
        </Form>
      ) : null}
      {!threadShown && (letter.threadId || letter.status === "to_staff" || letter.status === "answered") ? (
        <p className="mt-3">
          <Link to={`/view-letters?thread=${letter.threadId ?? letter.id}`}>
            Read the whole thread<span className="sr-only">{` of ${about}`}</span>
          </Link>
        </p>
      ) : null}
      {letter.fromNpc ? null : (
        <div className="mt-3">
          <QueueEntry
            entryId={letter.id}
            about={about}
            queue={queue}
            result={actionData}
            answer={answer}
            open={Boolean(answer && mine?.values)}
          />
        </div>
      )}
    </article>
  );
}

export default function ViewLetters({ loaderData, actionData }: Route.ComponentProps) {
  const { queues } = loaderData;
  // A tab changes which letters are listed, not how they are narrowed: the search and the queue filter go along.
  const narrowing = `${loaderData.search ? `&q=${encodeURIComponent(loaderData.search)}` : ""}${filterQuery(loaderData.filter)}`;
  const tabAddress = (tab: "held" | "npc" | null) => {
    const query = `${tab ? `&tab=${tab}` : ""}${narrowing}`.slice(1);
    return query ? `/view-letters?${query}` : "/view-letters";
  };
  const tabs = [
    { id: "all" as const, label: "All letters", to: tabAddress(null) },
    { id: "held" as const, label: `Waiting for release (${queues.held})`, to: tabAddress("held") },
    { id: "npc" as const, label: `To NPCs (${queues.toStaff})`, to: tabAddress("npc") },
  ];
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-center text-5xl">Letters</h1>
      <hr className="divider my-6" />
      <div className="flex flex-col gap-4">
        <nav aria-label="Letter queues" className="panel flex flex-row flex-wrap gap-1 p-2">
          <SideTabLinks tabs={tabs} active={loaderData.queue} />
        </nav>
        {actionData?.done ? (
          <Alert kind="success">
            {actionData.done === "released" ? LETTER_MESSAGES.released : LETTER_MESSAGES.answered}
          </Alert>
        ) : null}
        {actionData?.message &&
        !actionData.entryId &&
        !loaderData.rows.some((letter) => letter.id === actionData.letterId) ? (
          <Alert kind="error">{actionData.message}</Alert>
        ) : null}
        <QueueNotice
          result={actionData?.entryId ? actionData : undefined}
          shown={loaderData.rows.map((letter) => letter.id)}
        />
        {loaderData.thread ? (
          <>
            <h2 className="text-2xl">A thread of letters, oldest first</h2>
            <ResultCount total={loaderData.rows.length} noun="letter" />
          </>
        ) : (
          <>
            <SearchForm
              tab={loaderData.queue === "all" ? undefined : loaderData.queue}
              search={loaderData.search}
              label="Search by sender, recipient or text"
              keep={filterFields(loaderData.filter)}
            />
            <QueueFilters
              filter={loaderData.filter}
              staff={loaderData.staff}
              keep={{ tab: loaderData.queue === "all" ? null : loaderData.queue, q: loaderData.search }}
            />
            {loaderData.moreThanCap ? (
              <p className="text-sm text-dust" aria-live="polite">
                {`More than ${LETTER_COUNT_CAP.toLocaleString("en-US")} letters match “${loaderData.search}”`}
              </p>
            ) : (
              <ResultCount total={loaderData.total} noun="letter" search={loaderData.search} />
            )}
          </>
        )}
        {loaderData.rows.map((letter) => (
          <LetterEntry
            key={letter.id}
            letter={letter}
            actionData={actionData}
            threadShown={Boolean(loaderData.thread)}
            queue={loaderData}
          />
        ))}
        {loaderData.thread ? null : <Pager page={loaderData.page} lastPage={loaderData.lastPage} />}
      </div>
    </div>
  );
}

/** Someone else took the entry, or a reply's form was spent (409): the queue and its keys are read again. */
export const shouldRevalidate = revalidateAfterConflict;

export const meta: Route.MetaFunction = () => [{ title: "Letters · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Letters", "Failed to load letters");
