import { data, useNavigation } from "react-router";
import type { Route } from "./+types/two-factor";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { ProfileLayout } from "~/features/members/ProfileLayout";
import { Alert } from "~/components/ui/Alert";
import { type FieldErrors, checkForm, readForm } from "~/web/forms/kernel";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import {
  ConfirmEnrolmentForm,
  ConfirmPhoneForm,
  phoneCodeSentMessage,
  PhoneNumberForm,
  TWO_FACTOR_MESSAGES,
  TwoFactorPasswordForm,
} from "~/features/two-factor/two-factor.form";
import { canBuildCharacter } from "~/game/roles";
import { requestInfoContext } from "~/web/request-context";
import { safeRedirectTarget } from "~/web/redirect-target";
import { failSafely } from "~/web/actions.server";
import {
  confirmPhoneEnrolment,
  removePhoneFactor,
  startPhoneEnrolment,
} from "~/features/two-factor/phone-factor.server";
import { requireAccess } from "~/web/guards.server";
import { qrCodeSvg, typedSecretOf, type TwoFactorOutcome } from "~/features/two-factor/two-factor.server";
import {
  confirmEnrolment,
  regenerateBackupCodes,
  removeSecondFactor,
  startEnrolment,
} from "~/features/two-factor/enrolment.server";
import { twoFactorStatus } from "~/identity/factors.server";
import {
  type AppEnrolment,
  BackupCodes,
  Enrolment,
  INTENTS,
  type Intent,
  PasswordForm,
  PhoneSection,
} from "~/features/two-factor/TwoFactorForms";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  const url = new URL(request.url);
  const required = url.searchParams.get("required");
  return {
    canHaveCharacter: canBuildCharacter(user.role),
    status: await twoFactorStatus(user.id),
    // Sent here by the staff tools' gate (app/web/two-factor-gate.server.ts): say why, and go back after.
    required: required === "manager" || required === "cast" ? required : null,
    redirectTo: safeRedirectTarget(url.searchParams.get("redirectTo"), ""),
  };
}

type ActionData = {
  intent?: Intent;
  ok?: string;
  message?: string;
  errors?: FieldErrors;
  /** Enrolment in progress: the QR code and the secret to type, until the first code confirms it. */
  enrolment?: AppEnrolment;
  /** Shown once, after enrolment or regeneration. */
  backupCodes?: string[];
  /** A code was texted to the number being added (shown by its last digits): the form for it. */
  phoneSent?: string;
  /** The number as typed, kept when adding it was refused. */
  phoneTyped?: string;
};

function withCookies(setCookies: string[]): Headers {
  const headers = new Headers();
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  return headers;
}

async function enrolmentOf(uri: string): Promise<ActionData["enrolment"]> {
  return { uri, qrSvg: await qrCodeSvg(uri), secret: typedSecretOf(uri) };
}

/** A refusal from the domain, under its field when it names one. */
function refusal(intent: Intent, outcome: Extract<TwoFactorOutcome, { ok: false }>, extra: Partial<ActionData> = {}) {
  const body: ActionData = outcome.field
    ? { intent, errors: { [outcome.field]: outcome.message }, ...extra }
    : { intent, message: outcome.message, ...extra };
  return data<ActionData>(body, { status: outcome.status });
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "member");
  const fields = await readForm(request);
  const intent = INTENTS.find((i) => i === fields.intent);
  if (!intent) return data<ActionData>({ message: "That action is not available here." }, { status: 400 });
  return failSafely<ActionData>(
    "changing two-factor authentication",
    { intent, message: TWO_FACTOR_MESSAGES.failed },
    async () => {
      if (intent === "phone-start") {
        const phoneTyped = typeof fields.phone === "string" ? fields.phone.slice(0, 40) : undefined;
        const parsed = checkForm(PhoneNumberForm, fields);
        if (!parsed.ok) return data<ActionData>({ intent, errors: parsed.errors, phoneTyped }, { status: 400 });
        const { clientAddress } = context.get(requestInfoContext);
        const outcome = await startPhoneEnrolment(request, clientAddress, user, parsed.data);
        if (!outcome.ok) return refusal(intent, outcome, { phoneTyped });
        return data<ActionData>({ intent, phoneSent: outcome.masked, ok: phoneCodeSentMessage(outcome.masked) });
      }
      if (intent === "phone-confirm") {
        const sentTo =
          typeof fields.sentTo === "string" && /^[•\s\d]{1,12}$/.test(fields.sentTo) ? fields.sentTo : "your phone";
        const parsed = checkForm(ConfirmPhoneForm, fields);
        if (!parsed.ok) return data<ActionData>({ intent, errors: parsed.errors, phoneSent: sentTo }, { status: 400 });
        const outcome = await confirmPhoneEnrolment(request, user, parsed.data.code);
        if (!outcome.ok) return refusal(intent, outcome, { phoneSent: sentTo });
        return data<ActionData>(
          { intent, ok: TWO_FACTOR_MESSAGES.phoneAdded },
          { headers: withCookies(outcome.setCookies) },
        );
      }
      if (intent === "confirm") {
        const parsed = checkForm(ConfirmEnrolmentForm, fields);
        if (!parsed.ok) {
          // A mistyped code keeps the enrolment on screen; a tampered address starts again.
          const uri =
            typeof fields.uri === "string" && fields.uri.startsWith("otpauth://totp/") && fields.uri.length <= 500
              ? fields.uri
              : null;
          return data<ActionData>(
            { intent, errors: parsed.errors, enrolment: uri ? await enrolmentOf(uri) : undefined },
            { status: 400 },
          );
        }
        const outcome = await confirmEnrolment(request, user, parsed.data.code);
        if (!outcome.ok) return refusal(intent, outcome, { enrolment: await enrolmentOf(parsed.data.uri) });
        return data<ActionData>(
          { intent, ok: TWO_FACTOR_MESSAGES.enrolled, backupCodes: outcome.backupCodes },
          { headers: withCookies(outcome.setCookies) },
        );
      }

      const parsed = checkForm(TwoFactorPasswordForm, fields);
      if (!parsed.ok) return data<ActionData>({ intent, errors: parsed.errors }, { status: 400 });
      const { password } = parsed.data;
      if (intent === "start") {
        const outcome = await startEnrolment(request, user, password);
        if (!outcome.ok) return refusal(intent, outcome);
        return data<ActionData>({ intent, enrolment: await enrolmentOf(outcome.uri) });
      }
      if (intent === "regenerate") {
        const outcome = await regenerateBackupCodes(request, user, password);
        if (!outcome.ok) return refusal(intent, outcome);
        return data<ActionData>({ intent, ok: TWO_FACTOR_MESSAGES.regenerated, backupCodes: outcome.backupCodes });
      }
      if (intent === "phone-remove") {
        const outcome = await removePhoneFactor(request, user, password);
        if (!outcome.ok) return refusal(intent, outcome);
        const ok = outcome.turnedOff ? TWO_FACTOR_MESSAGES.phoneRemovedAndOff : TWO_FACTOR_MESSAGES.phoneRemoved;
        return data<ActionData>({ intent, ok }, { headers: withCookies(outcome.setCookies) });
      }
      const outcome = await removeSecondFactor(request, user, password);
      if (!outcome.ok) return refusal(intent, outcome);
      return data<ActionData>(
        { intent, ok: TWO_FACTOR_MESSAGES.removed },
        { headers: withCookies(outcome.setCookies) },
      );
    },
  );
}

export default function ProfileTwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const { status, required, redirectTo } = loaderData;
  const errorsFor = (intent: Intent) => (actionData?.intent === intent ? actionData.errors : undefined);
  const continueTo = redirectTo || "/profile/two-factor";
  // Only while text messages can be sent (SMS_WEBHOOK_URL); a number kept from before stays removable.
  const showPhone = status.sms || status.phone !== null;
  // A phone for texted codes, offered whether or not an authenticator app is set up.
  const phoneSection = showPhone ? (
    <PhoneSection
      phone={status.phone}
      sentTo={actionData?.phoneSent}
      typed={actionData?.phoneTyped}
      errorsFor={errorsFor}
      busy={busy}
    />
  ) : null;
  return (
    <ProfileLayout canHaveCharacter={loaderData.canHaveCharacter} active="two-factor">
      <section aria-labelledby="two-factor-heading" className="panel flex flex-col gap-4">
        <h2 id="two-factor-heading" className="text-2xl">
          Two-factor authentication
        </h2>
        {required && !status.enabled && !actionData?.backupCodes ? (
          <Alert kind="error">
            {required === "manager" ? TWO_FACTOR_MESSAGES.managerRequired : TWO_FACTOR_MESSAGES.castRequired}
          </Alert>
        ) : null}
        <p data-testid="two-factor-status">
          <strong>Status: </strong>
          {status.enabled ? (
            <>
              <span className="font-bold text-brass">On</span> — signing in asks for a code{" "}
              {status.app ? "from your authenticator app" : status.phone ? "texted to your phone" : "sent by email"}
              {status.app && status.backupCodesLeft !== null
                ? ` (${status.backupCodesLeft} of 10 backup codes left)`
                : ""}
              {status.app && status.phone ? ", or texted to your phone" : ""}.
            </>
          ) : (
            <>
              <span className="font-bold">Off</span> — signing in needs only your password.
            </>
          )}
        </p>
        {actionData?.ok ? <Alert kind="success">{actionData.ok}</Alert> : null}
        {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}

        {actionData?.enrolment ? (
          <Enrolment enrolment={actionData.enrolment} errors={errorsFor("confirm")} busy={busy} />
        ) : actionData?.backupCodes ? (
          <BackupCodes codes={actionData.backupCodes} continueTo={continueTo} />
        ) : status.enabled && status.app ? (
          <>
            <h3 className="text-xl">New backup codes</h3>
            <p>Used some, or lost the list? Make ten new ones; the old ones stop working.</p>
            <PasswordForm
              intent="regenerate"
              label="Make new backup codes"
              button="Make new backup codes"
              errors={errorsFor("regenerate")}
              busy={busy}
            />
            {phoneSection}
            <h3 className="text-xl">Turn two-factor authentication off</h3>
            <p>
              Removes the authenticator app and the backup codes{status.phone ? ", and your phone number," : ""} from
              your account.
            </p>
            <PasswordForm
              intent="remove"
              label="Turn two-factor authentication off"
              button="Turn off"
              danger
              errors={errorsFor("remove")}
              busy={busy}
            />
          </>
        ) : (
          <>
            <p>
              Protect your account with a second step when you sign in: a code from an authenticator app on your phone,
              as well as your password. You get ten backup codes too, for the day the phone is lost.
            </p>
            <PasswordForm
              intent="start"
              label="Set up an authenticator app"
              button="Set up an authenticator app"
              errors={errorsFor("start")}
              busy={busy}
            />
            {phoneSection}
          </>
        )}
      </section>
    </ProfileLayout>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Two-factor authentication · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Two-factor authentication", SUBMISSION_MESSAGES.loadFailed);
