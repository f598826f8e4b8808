import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/devices";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { ProfileLayout } from "~/features/members/ProfileLayout";
import { Alert } from "~/components/ui/Alert";
import { readForm } from "~/web/forms/kernel";
import { SUBMISSION_MESSAGES } from "~/features/submissions/submissions.messages";
import { canBuildCharacter } from "~/game/roles";
import { formatClubTime } from "~/lib/dates";
import { failSafely } from "~/web/actions.server";
import {
  listDevices,
  signOutDevice,
  signOutEverywhere,
  signOutOtherDevices,
  signOutThisDevice,
  type Device,
} from "~/features/accounts/devices.server";
import { requireAccess } from "~/web/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  return { canHaveCharacter: canBuildCharacter(user.role), list: await listDevices(request) };
}

type ActionData = { ok?: string; message?: string };
const INTENTS = ["this", "others", "everywhere", "one"] as const;
/** A session id as the auth library makes them; anything else names no session. */
const SESSION_ID = /^[\w-]{1,100}$/;

/** After a sign-out that ends this device's session: its cookie is cleared and the member goes to sign in (thrown: an answer, not data). */
function toSignIn(setCookies: string[]): never {
  const headers = new Headers();
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  throw redirect("/auth", { headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  requireAccess(context, request, "member");
  const fields = await readForm(request);
  const intent = INTENTS.find((i) => i === fields.intent);
  if (!intent) return data<ActionData>({ message: "That action is not available here." }, { status: 400 });
  return failSafely<ActionData>(
    "signing out devices",
    { message: "Failed to sign out. Please try again." },
    async () => {
      if (intent === "this") toSignIn(await signOutThisDevice(request));
      if (intent === "everywhere") toSignIn(await signOutEverywhere(request));
      if (intent === "others") {
        await signOutOtherDevices(request);
        return data({ ok: "You are signed out on every other device." });
      }
      const id = fields.id ?? "";
      const done = SESSION_ID.test(id) ? await signOutDevice(request, id) : false;
      if (done === "stale") return data({ message: STALE }, { status: 403 });
      if (!done) return data({ message: "That device is no longer signed in." }, { status: 404 });
      return data({ ok: "That device is signed out." });
    },
  );
}

const STALE =
  "For your safety, the list of devices is shown only within a day of signing in. Sign out and sign in again to see it.";

function DeviceRow({ device, busy }: { device: Device; busy: boolean }) {
  return (
    <li className="flex flex-col gap-2 py-4" data-testid="device">
      <div className="flex flex-wrap items-baseline gap-x-3">
        <h3 className="text-xl">{device.browser}</h3>
        {device.current ? <span className="rounded bg-sage/20 px-2 py-0.5 text-sm font-bold">This device</span> : null}
      </div>
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[9rem_1fr]">
        <dt className="text-dust">Address</dt>
        <dd className="break-all">{device.address ?? "Unknown"}</dd>
        <dt className="text-dust">Last seen</dt>
        <dd>{formatClubTime(device.lastSeen)}</dd>
      </dl>
      {device.current ? null : (
        <Form method="post">
          <input type="hidden" name="id" value={device.id} />
          <button type="submit" name="intent" value="one" className="btn btn-secondary" disabled={busy}>
            Sign out
            <span className="sr-only">
              {" "}
              {device.browser}, last seen {formatClubTime(device.lastSeen)}
            </span>
          </button>
        </Form>
      )}
    </li>
  );
}

export default function ProfileDevices({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const { list } = loaderData;
  return (
    <ProfileLayout canHaveCharacter={loaderData.canHaveCharacter} active="devices">
      <section aria-labelledby="devices" className="panel flex flex-col gap-4">
        <h2 id="devices" className="text-2xl">
          Signed-in devices
        </h2>
        <p className="text-sm text-dust">
          Where you are signed in. The address is the one each device signed in from, which tells roughly where it was;
          the time it was last seen is brought up to date at most once a day.
        </p>
        {actionData?.ok ? <Alert kind="success">{actionData.ok}</Alert> : null}
        {actionData?.message ? <Alert kind="error">{actionData.message}</Alert> : null}
        {list.ok ? (
          <ul className="divide-y divide-ash">
            {list.devices.map((device) => (
              <DeviceRow key={device.id} device={device} busy={busy} />
            ))}
          </ul>
        ) : (
          <p>{STALE}</p>
        )}
        <Form method="post" className="flex flex-wrap gap-2">
          <button type="submit" name="intent" value="this" className="btn btn-secondary" disabled={busy}>
            Sign out this device
          </button>
          <button type="submit" name="intent" value="others" className="btn btn-secondary" disabled={busy}>
            Sign out all other devices
          </button>
          <button type="submit" name="intent" value="everywhere" className="btn btn-primary" disabled={busy}>
            Sign out everywhere
          </button>
        </Form>
      </section>
    </ProfileLayout>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Signed-in devices · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Signed-in devices", SUBMISSION_MESSAGES.loadFailed);
