import type { Route } from "./+types/record";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { ProfileLayout } from "~/features/members/ProfileLayout";
import { RECORD_KIND_NAMES, recordFilter } from "~/features/my-record/record";
import { memberRecord } from "~/features/my-record/record.server";
import { RecordApplicationLine, RecordKindLinks, RecordList } from "~/features/my-record/RecordList";
import { canBuildCharacter } from "~/game/roles";
import { pageParam } from "~/lib/paging";
import { requireAccess } from "~/web/guards.server";

/** The member's own record: what they have sent, with staff's replies, and their application. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  const url = new URL(request.url);
  const record = await memberRecord(user.id, recordFilter(url.searchParams.get("kind")), pageParam(url));
  return { ...record, canHaveCharacter: canBuildCharacter(user.role) };
}

export default function Record({ loaderData }: Route.ComponentProps) {
  const { filter, counts, items, page, lastPage, application } = loaderData;
  return (
    <ProfileLayout canHaveCharacter={loaderData.canHaveCharacter} active="record">
      <section aria-labelledby="record-heading" className="panel flex min-w-0 flex-col gap-4">
        <h2 id="record-heading" className="text-2xl">
          My Record
        </h2>
        <p className="text-dust">
          What you have sent the club, newest first, with staff&apos;s replies. Only you and staff see it.
        </p>
        <RecordApplicationLine application={application} />
        <RecordKindLinks filter={filter} counts={counts} />
        <RecordList filter={filter} items={items} page={page} lastPage={lastPage} />
      </section>
    </ProfileLayout>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const filter = loaderData?.filter ?? "all";
  return [{ title: `My Record${filter === "all" ? "" : `: ${RECORD_KIND_NAMES[filter].many}`} · Hopewell` }];
};

export const ErrorBoundary = pageErrorBoundary("My Record", "Failed to load your record. Please try again.");
