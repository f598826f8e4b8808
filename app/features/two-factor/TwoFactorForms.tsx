// The parts of /profile/two-factor: the forms that set up, confirm and remove a member's second factors.
import { Form } from "react-router";
import { Link } from "~/components/Link";
import { PasswordField } from "~/features/accounts/PasswordField";
import { Field } from "~/components/ui/Field";
import type { FieldErrors } from "~/web/forms/kernel";

/** What the page's forms ask for, each by its `intent`. */
export type Intent = "start" | "confirm" | "regenerate" | "remove" | "phone-start" | "phone-confirm" | "phone-remove";
export const INTENTS: Intent[] = [
  "start",
  "confirm",
  "regenerate",
  "remove",
  "phone-start",
  "phone-confirm",
  "phone-remove",
];

/** An authenticator app being set up: its otpauth:// address, drawn as a QR code, and its key to type (when it can be typed). */
export type AppEnrolment = { uri: string; qrSvg: string; secret: string | null };

/** A form that asks for the member's password before a change to their second factors. */
export function PasswordForm({
  intent,
  label,
  button,
  danger,
  errors,
  busy,
}: {
  intent: Intent;
  label: string;
  button: string;
  danger?: boolean;
  errors?: FieldErrors;
  busy: boolean;
}) {
  return (
    <Form method="post" noValidate className="flex max-w-md flex-col gap-4" aria-label={label}>
      <input type="hidden" name="intent" value={intent} />
      <PasswordField
        label="Your password"
        name="password"
        autoComplete="current-password"
        required
        error={errors?.password}
      />
      <button type="submit" className={danger ? "btn btn-secondary" : "btn btn-primary"} disabled={busy}>
        {button}
      </button>
    </Form>
  );
}

/** Setting up an authenticator app: its QR code and key, and the form for its first code. */
export function Enrolment({
  enrolment,
  errors,
  busy,
}: {
  enrolment: AppEnrolment;
  errors?: FieldErrors;
  busy: boolean;
}) {
  return (
    <div className="flex flex-col gap-4">
      <h3 className="text-xl">Set up your authenticator app</h3>
      <ol className="ml-5 flex list-decimal flex-col gap-2">
        <li>
          Open an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, Aegis, 1Password and
          the like).
        </li>
        <li>Add an account by scanning this QR code, or by typing the key below.</li>
        <li>Enter the 6-digit code the app then shows.</li>
      </ol>
      <div
        role="img"
        aria-label="QR code to scan with your authenticator app"
        className="w-56 max-w-full self-center rounded-md bg-white p-2 sm:self-start [&>svg]:h-auto [&>svg]:w-full"
        // Drawn on the server by the qrcode package from the library's otpauth:// address: no script, no link.
        dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }}
      />
      {enrolment.secret ? (
        <div>
          <p className="font-bold">Key to type instead</p>
          <p className="break-all font-mono text-lg tracking-wider" data-testid="totp-secret">
            {enrolment.secret}
          </p>
          <p className="text-sm text-dust">Time-based, 6 digits, every 30 seconds.</p>
        </div>
      ) : null}
      <Form
        method="post"
        noValidate
        className="flex max-w-md flex-col gap-4"
        aria-label="Confirm the authenticator app"
      >
        <input type="hidden" name="intent" value="confirm" />
        <input type="hidden" name="uri" value={enrolment.uri} />
        <Field
          label="Code from the app"
          name="code"
          required
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={10}
          error={errors?.code}
        />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Checking…" : "Turn on two-factor authentication"}
        </button>
      </Form>
      <p>
        <Link to="/profile/two-factor">Cancel</Link>
      </p>
    </div>
  );
}

/** Codes by text message: add a number (confirmed by a code texted to it), or remove it. */
export function PhoneSection({
  phone,
  sentTo,
  typed,
  errorsFor,
  busy,
}: {
  phone: string | null;
  sentTo?: string;
  typed?: string;
  errorsFor: (intent: Intent) => FieldErrors | undefined;
  busy: boolean;
}) {
  return (
    <div className="flex flex-col gap-4">
      <h3 className="text-xl">Codes by text message</h3>
      {sentTo ? (
        <>
          <Form
            method="post"
            noValidate
            className="flex max-w-md flex-col gap-4"
            aria-label="Confirm your phone number"
          >
            <input type="hidden" name="intent" value="phone-confirm" />
            <input type="hidden" name="sentTo" value={sentTo} />
            <Field
              label="Code from the text message"
              name="code"
              required
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={10}
              error={errorsFor("phone-confirm")?.code}
            />
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? "Checking…" : "Confirm phone number"}
            </button>
          </Form>
          <p>
            <Link to="/profile/two-factor">Use another number, or send the code again</Link>
          </p>
        </>
      ) : phone ? (
        <>
          <p data-testid="phone-status">
            Sign-in codes can be texted to your phone ending in <strong>{phone.replace(/^[•\s]+/, "")}</strong>.
          </p>
          <PasswordForm
            intent="phone-remove"
            label="Remove your phone number"
            button="Remove phone number"
            danger
            errors={errorsFor("phone-remove")}
            busy={busy}
          />
        </>
      ) : (
        <>
          <p>
            Have a 6-digit code texted to your mobile phone when you sign in. We text it only then, and never share the
            number.
          </p>
          <Form
            method="post"
            noValidate
            className="flex max-w-md flex-col gap-4"
            aria-label="Add a phone for text messages"
          >
            <input type="hidden" name="intent" value="phone-start" />
            <Field
              label="Mobile phone number"
              name="phone"
              type="tel"
              required
              autoComplete="tel"
              maxLength={40}
              defaultValue={typed}
              hint="A US number, or any number with its country code (+44 ...)."
              error={errorsFor("phone-start")?.phone}
            />
            <PasswordField
              label="Your password"
              name="password"
              autoComplete="current-password"
              required
              error={errorsFor("phone-start")?.password}
            />
            <button type="submit" className="btn btn-primary" disabled={busy}>
              Text me a code
            </button>
          </Form>
        </>
      )}
    </div>
  );
}

/** The backup codes, shown once after they are made, to download or write down. */
export function BackupCodes({ codes, continueTo }: { codes: string[]; continueTo: string }) {
  return (
    <div className="flex flex-col gap-4">
      <h3 className="text-xl">Your backup codes</h3>
      <p>
        If you lose your phone, each of these codes signs you in once instead of the app. Download them or write them
        down now and keep them somewhere safe: this page will not show them again.
      </p>
      <ul className="grid max-w-md grid-cols-2 gap-2 font-mono text-lg" aria-label="Backup codes">
        {codes.map((code) => (
          <li key={code} className="rounded border border-timber px-2 py-1 text-center">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        {/* A plain form, so the download works without JavaScript; the codes are already on this page. */}
        <Form method="post" action="/profile/two-factor/backup-codes" reloadDocument>
          <input type="hidden" name="codes" value={codes.join(" ")} />
          <button type="submit" className="btn btn-secondary">
            Download as a text file
          </button>
        </Form>
        <Link to={continueTo} className="btn btn-primary">
          I have saved them
        </Link>
      </div>
    </div>
  );
}
