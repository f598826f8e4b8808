import { useEffect, useRef, useState } from "react";
import { data, Form, useFetcher, useNavigation, useRouteLoaderData } from "react-router";
import { FormFootButton } from "~/components/ui/SubmitButton";
import { Link } from "~/components/Link";
import type { Route } from "./+types/letters";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { SideTabLinks } from "~/components/SideTabs";
import { SuccessPanel } from "~/components/SuccessPanel";
import { Pager, ResultCount } from "~/components/ListControls";
import { Alert } from "~/components/ui/Alert";
import { Field } from "~/components/ui/Field";
import { TextAreaField } from "~/components/ui/TextAreaField";
import { formFields, parseForm } from "~/web/forms/kernel";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { LetterForm, type LetterSentAnswer } from "~/features/letters/letters.form";
import { deliveryNote, LETTER_STATUS_FOR_WRITER } from "~/game/letters";
import { TEXTAREA_ROWS, USER_SEARCH_DEBOUNCE_MS } from "~/game/rules";
import { formatClubTime } from "~/lib/dates";
import { lastPage, pageParam } from "~/lib/paging";
import type { loader as rootLoader } from "~/root";
import { failSafely } from "~/web/actions.server";
import { requireAccess } from "~/web/guards.server";
import { LETTER_BOX_PAGE_SIZE, letterBox } from "~/features/letters/letter-box.server";
import { sendLetter } from "~/features/letters/letters.server";

type Tab = "write" | "box";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  const tab: Tab = new URL(request.url).searchParams.get("tab") === "box" ? "box" : "write";
  if (tab === "write") return { tab, submissionKey: crypto.randomUUID(), box: null };
  const page = pageParam(request.url);
  const box = await letterBox(user.id, page);
  return { tab, submissionKey: "", box: { ...box, page, lastPage: lastPage(box.total, LETTER_BOX_PAGE_SIZE) } };
}

type ActionData = LetterSentAnswer;

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  const form = await parseForm(request, LetterForm);
  if (!form.ok) {
    const onlyBlanks = Object.values(form.errors).every((e) => e === SUBMISSION_MESSAGES.fillAllFields);
    return data<ActionData>(
      { message: onlyBlanks ? SUBMISSION_MESSAGES.fillAllFields : undefined, errors: form.errors, values: form.values },
      { status: 400 },
    );
  }
  return failSafely<ActionData>(
    "saving a letter",
    { message: SUBMISSION_MESSAGES.letterFailed, values: form.values },
    async () => {
      const sent = await sendLetter(user, form.data);
      return data({ sent: true, delivery: sent.delivery, recipient: sent.recipient });
    },
  );
}

/** Suggests existing characters' names as the member types (any name is still allowed). */
function RecipientField({ defaultValue, error }: { defaultValue?: string; error?: string }) {
  const fetcher = useFetcher<{ names: string[] }>();
  const [typed, setTyped] = useState(defaultValue ?? "");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  function onType(value: string) {
    setTyped(value);
    clearTimeout(timer.current);
    // Ask after a pause in typing, not on every key.
    if (value.trim().length > 0)
      timer.current = setTimeout(
        () => fetcher.load(`/letters/recipients?${new URLSearchParams({ q: value })}`),
        USER_SEARCH_DEBOUNCE_MS,
      );
  }
  const names = typed.trim().length === 0 ? [] : (fetcher.data?.names ?? []);
  return (
    <>
      <Field
        label="To"
        name="recipient"
        hint="The character you are writing to. Names of characters in Hopewell are suggested as you type; a letter to anyone else goes to the club's staff, who answer for them."
        list="recipient-suggestions"
        autoComplete="off"
        required
        maxLength={100}
        defaultValue={defaultValue}
        error={error}
        onChange={(event) => onType(event.currentTarget.value)}
      />
      <datalist id="recipient-suggestions">
        {names.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </>
  );
}

function LetterBox({ box }: { box: NonNullable<Route.ComponentProps["loaderData"]["box"]> }) {
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="received" className="panel flex flex-col gap-3">
        <h2 id="received" className="text-2xl">
          Letters to you
        </h2>
        <ResultCount total={box.total} noun="letter" />
        {box.total === 0 ? <p className="text-dust">No letters have arrived for you yet.</p> : null}
        <ul className="flex flex-col divide-y divide-timber/60">
          {box.received.map((letter) => (
            <li key={letter.id} className="py-3">
              <Link to={`/letters/${letter.id}`} className="flex flex-col gap-1 no-underline hover:no-underline">
                <span className="flex flex-wrap items-baseline gap-x-3">
                  <span
                    className={letter.unread ? "font-bold text-brass" : "text-parchment"}
                  >{`From ${letter.from}`}</span>
                  {letter.unread ? (
                    <span className="rounded bg-rust-dark px-2 text-sm text-parchment">Unread</span>
                  ) : null}
                  <span className="text-sm text-dust">{`To ${letter.to} · ${letter.at ? formatClubTime(letter.at) : ""}`}</span>
                </span>
                <span className="line-clamp-2 text-dust">{letter.preview}</span>
              </Link>
            </li>
          ))}
        </ul>
        <Pager page={box.page} lastPage={box.lastPage} />
      </section>
      <section aria-labelledby="sent" className="panel flex flex-col gap-3">
        <h2 id="sent" className="text-2xl">
          Letters you sent
        </h2>
        {box.sent.length === 0 ? (
          <p className="text-dust">You have not sent any letters yet.</p>
        ) : (
          <p className="text-sm text-dust">Your latest letters, newest first.</p>
        )}
        <ul className="flex flex-col divide-y divide-timber/60">
          {box.sent.map((letter) => (
            <li key={letter.id} className="py-3">
              <Link to={`/letters/${letter.id}`} className="flex flex-col gap-1 no-underline hover:no-underline">
                <span className="flex flex-wrap items-baseline gap-x-3">
                  <span className="text-parchment">{`To ${letter.to}`}</span>
                  <span className="text-sm text-dust">{`${LETTER_STATUS_FOR_WRITER[letter.status]} · ${formatClubTime(letter.at)}`}</span>
                </span>
                <span className="line-clamp-2 text-dust">{letter.preview}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

export default function Letters({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const unread = useRouteLoaderData<typeof rootLoader>("root")?.unreadLetters ?? 0;
  const [localError, setLocalError] = useState(false);
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const values = actionData?.values ?? {};
  const errors = localError ? {} : (actionData?.errors ?? {});
  const message = localError ? SUBMISSION_MESSAGES.fillAllFields : actionData?.message;
  const tab: Tab = actionData ? "write" : loaderData.tab;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-center text-5xl">{tab === "box" ? "Letter Box" : "Write a Letter"}</h1>
      <hr className="divider my-6" />
      <nav aria-label="Letters" className="panel mb-6 flex flex-row flex-wrap gap-1 p-2">
        <SideTabLinks
          tabs={[
            { id: "write" as const, label: "Write a Letter", to: "/letters" },
            {
              id: "box" as const,
              label: unread > 0 ? `Letter box (${unread} unread)` : "Letter box",
              to: "/letters?tab=box",
            },
          ]}
          active={tab}
        />
      </nav>
      {tab === "box" && loaderData.box ? (
        <LetterBox box={loaderData.box} />
      ) : actionData?.sent ? (
        <SuccessPanel title="Letter Sent!" to="/profile" destination="your profile">
          <p>Your letter is on its way by the next stage out of Hopewell.</p>
          <p className="mt-2">{deliveryNote(actionData.delivery, actionData.recipient)}</p>
        </SuccessPanel>
      ) : (
        <Form
          method="post"
          action="/letters"
          noValidate
          className="panel flex flex-col gap-5"
          onSubmit={(event) => {
            const blank = !LetterForm.safeParse(formFields(new FormData(event.currentTarget))).success;
            setLocalError(blank);
            if (blank) event.preventDefault();
          }}
        >
          {message ? <Alert kind="error">{message}</Alert> : null}
          <input type="hidden" name="submissionKey" value={values.submissionKey ?? loaderData.submissionKey} />
          <RecipientField defaultValue={values.recipient} error={errors.recipient} />
          <TextAreaField
            label="Letter"
            name="body"
            rows={TEXTAREA_ROWS.letter}
            maxLength={10_000}
            required
            defaultValue={values.body}
            error={errors.body}
          />
          <FormFootButton busy={submitting} busyLabel="Sending…">
            Send Letter
          </FormFootButton>
        </Form>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.tab === "box" ? "Letter Box" : "Write a Letter"} · Hopewell` },
];

/** A form that could not be read, or a failure, keeps the page's heading and the member's navigation. */
export const ErrorBoundary = pageErrorBoundary("Write a Letter", SUBMISSION_MESSAGES.letterFailed);
