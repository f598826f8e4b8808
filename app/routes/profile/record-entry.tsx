import { data } from "react-router";
import type { Route } from "./+types/record-entry";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { ProfileLayout } from "~/features/members/ProfileLayout";
import { RECORD_KIND_NAMES } from "~/features/my-record/record";
import { memberRecordEntry } from "~/features/my-record/record.server";
import { RecordEntryView } from "~/features/my-record/RecordEntryView";
import { canBuildCharacter } from "~/game/roles";
import { requireAccess } from "~/web/guards.server";

/** One entry of the member's record, whole. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  const entry = await memberRecordEntry(user.id, params.kind, params.id);
  // Another member's entry, a kind or an id that is not one, or none at all: the same answer.
  if (!entry) throw data("No such entry in your record", { status: 404 });
  return { entry, canHaveCharacter: canBuildCharacter(user.role) };
}

export default function RecordEntryPage({ loaderData }: Route.ComponentProps) {
  return (
    <ProfileLayout canHaveCharacter={loaderData.canHaveCharacter} active="record">
      <RecordEntryView entry={loaderData.entry} />
    </ProfileLayout>
  );
}

// Without an entry (a 404), the error page names itself.
export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? [
        {
          title: `${RECORD_KIND_NAMES[loaderData.entry.kind].one}: ${loaderData.entry.eventTitle} · My Record · Hopewell`,
        },
      ]
    : [];

export const ErrorBoundary = pageErrorBoundary("My Record", "Failed to load this entry. Please try again.");
