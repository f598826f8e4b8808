import type { Route } from "./+types/notices";
import { Link } from "~/components/Link";
import { Pager, ResultCount } from "~/components/ListControls";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { ProfileLayout } from "~/features/members/ProfileLayout";
import { NOTICES_MESSAGES } from "~/features/messages/choices.messages";
import { NoticeItem } from "~/features/messages/NoticeItem";
import { memberNotices } from "~/features/messages/notices.server";
import { canBuildCharacter } from "~/game/roles";
import { pageParam } from "~/lib/paging";
import { htmlOnce } from "~/web/document-html.server";
import { requireAccess } from "~/web/guards.server";

/** The member's Notices: the managers' messages to them, newest first, each as it was written to them. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  const found = await memberNotices(user, pageParam(request.url));
  return {
    ...found,
    // Each body is carried in the page once (DocumentHtml), not again in the data the browser takes over with.
    notices: found.notices.map((notice) => ({
      ...notice,
      html: htmlOnce(context, request, `notice-${notice.id}`, notice.html),
    })),
    canHaveCharacter: canBuildCharacter(user.role),
  };
}

export default function Notices({ loaderData }: Route.ComponentProps) {
  const { notices, total, page, lastPage } = loaderData;
  return (
    <ProfileLayout canHaveCharacter={loaderData.canHaveCharacter} active="notices">
      <section aria-labelledby="notices-heading" className="panel flex min-w-0 flex-col gap-4">
        <h2 id="notices-heading" className="text-2xl">
          {NOTICES_MESSAGES.heading}
        </h2>
        <p className="text-dust">
          {NOTICES_MESSAGES.intro} <Link to="/profile#club-messages">{NOTICES_MESSAGES.choices}</Link>.
        </p>
        {notices.length === 0 && page === 0 ? (
          <p data-testid="notices-empty">{NOTICES_MESSAGES.empty}</p>
        ) : (
          <>
            <ResultCount total={total} noun="message" />
            <ol className="flex flex-col gap-3">
              {notices.map((notice, index) => (
                <NoticeItem key={notice.id} notice={notice} open={page === 0 && index === 0} />
              ))}
            </ol>
            <Pager page={page} lastPage={lastPage} />
          </>
        )}
      </section>
    </ProfileLayout>
  );
}

export const meta: Route.MetaFunction = () => [{ title: `${NOTICES_MESSAGES.heading} · Profile · Hopewell` }];

export const ErrorBoundary = pageErrorBoundary(NOTICES_MESSAGES.heading, NOTICES_MESSAGES.loadFailed);
