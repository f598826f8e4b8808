import { Icon } from "~/components/Icon";
import { useRouteLoaderData } from "react-router";
import type { Route } from "./+types/home";
import { ButtonLink } from "~/components/ui/ButtonLink";
import { GAME_TAGLINE, GAME_YEAR } from "~/game";
import { faqAsShown, welcomeAsShown } from "~/features/club-facts/club-facts.server";
import type { loader as rootLoader } from "~/root";
import { NextStepPanel } from "~/features/next-step/NextStepPanel";
import { nextStepFor } from "~/features/next-step/next-step.server";
import { optionalUser } from "~/web/guards.server";
import { htmlOnce } from "~/web/document-html.server";
import { DocumentHtml } from "~/components/DocumentHtml";

const FEATURES = [
  {
    title: "Crafting",
    icon: "hammer",
    text: "Forge, stitch, brew and build. Trades keep Hopewell alive, and the goods you make are real props you can hold, trade and use in play.",
  },
  {
    title: "Survival",
    icon: "flame",
    text: "Food runs short, winter is coming and the company store is not your friend. Every choice about what to make, trade or hoard matters.",
  },
  {
    title: "Horror",
    icon: "skull",
    text: "Something old stirs beneath the mine. Lanterns gutter, the hills go quiet, and not everyone who walks out into the dark comes back the same.",
  },
] as const;

/**
 * A signed-in member's next steps lead the page; signed out only the club's welcome and FAQ are
 * read (the page is rendered once and served from memory to every visitor until a manager saves them,
 * http/pipeline/anonymous-cache.ts). Their HTML is in a signed-in member's page once, not again in
 * its data (DocumentHtml).
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const user = optionalUser(context);
  const [nextStep, welcome, faq] = await Promise.all([user ? nextStepFor(user) : null, welcomeAsShown(), faqAsShown()]);
  return {
    nextStep,
    welcome: htmlOnce(context, request, WELCOME_ID, welcome),
    faq: faq.map((entry) => ({
      ...entry,
      answerHtml: htmlOnce(context, request, answerId(entry.id), entry.answerHtml),
    })),
  };
}

const WELCOME_ID = "welcome-story";
const answerId = (entryId: string) => `faq-${entryId}-answer`;

export default function Home({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const signedIn = Boolean(root?.user);
  const joinTo = signedIn ? "/application" : "/auth";

  return (
    <>
      {loaderData.nextStep ? <NextStepPanel step={loaderData.nextStep} /> : null}
      <section aria-labelledby="hero-title" className="relative overflow-hidden border-b border-timber">
        <div className="mx-auto flex max-w-4xl flex-col items-center px-4 py-20 text-center sm:py-28">
          <p className="font-display tracking-[0.3em] text-dust uppercase">Dakota Territory · {GAME_YEAR}</p>
          <h1 id="hero-title" className="mt-4 text-6xl sm:text-8xl">
            Hopewell
          </h1>
          <hr className="divider my-6" />
          <p className="max-w-2xl text-xl text-parchment sm:text-2xl">{GAME_TAGLINE}</p>
          <p className="mt-3 max-w-2xl text-dust">
            A western survival and horror live-action role-playing game, played over weekend events in New England.
          </p>
          <div className="mt-10 flex flex-col gap-3 sm:flex-row">
            <ButtonLink to={joinTo}>{signedIn ? "Apply Now" : "Join the Adventure"}</ButtonLink>
            <ButtonLink to="/rulebook" variant="secondary">
              Learn More
            </ButtonLink>
            <ButtonLink to="/events" variant="secondary">
              View Event Schedule
            </ButtonLink>
          </div>
        </div>
      </section>

      <section aria-labelledby="welcome-title" className="mx-auto max-w-3xl px-4 py-16">
        <h2 id="welcome-title" className="text-center text-4xl">
          Welcome to Hopewell
        </h2>
        <hr className="divider my-6" />
        <DocumentHtml id={WELCOME_ID} html={loaderData.welcome} className="prose-western text-lg" />
      </section>

      <section aria-labelledby="features-title" className="mx-auto max-w-6xl px-4 pb-16">
        <h2 id="features-title" className="sr-only">
          What you will do
        </h2>
        <ul className="grid gap-6 md:grid-cols-3">
          {FEATURES.map(({ title, icon, text }) => (
            <li key={title} className="panel text-center">
              <Icon name={icon} className="mx-auto size-10 text-rust" strokeWidth={1.5} />
              <h3 className="mt-4 text-2xl">{title}</h3>
              <p className="mt-3 text-dust">{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="cta-title" className="border-y border-timber bg-soot/70">
        <div className="mx-auto max-w-3xl px-4 py-16 text-center">
          <h2 id="cta-title" className="text-4xl">
            Your Story Begins Here
          </h2>
          <p className="mt-4 text-lg text-dust">
            Hopewell needs smiths, miners, healers and the brave or foolish few who go looking for answers. Apply to
            play as a settler, or join the cast and bring the darkness to life.
          </p>
          <p className="mt-8">
            <ButtonLink to={joinTo}>{signedIn ? "Apply Now" : "Register Now"}</ButtonLink>
          </p>
        </div>
      </section>

      <section aria-labelledby="faq-title" className="mx-auto max-w-3xl px-4 py-16">
        <h2 id="faq-title" className="text-center text-4xl">
          Frequently Asked Questions
        </h2>
        <hr className="divider my-6" />
        <div className="flex flex-col gap-3">
          {loaderData.faq.map((entry) => (
            <details key={entry.id} id={`faq-${entry.id}`} className="group rounded-md border border-timber bg-soot/80">
              <summary className="flex list-none items-center justify-between gap-4 px-5 py-4 font-display text-lg text-brass">
                {entry.question}
                <span aria-hidden="true" className="text-2xl transition-transform group-open:rotate-45">
                  +
                </span>
              </summary>
              <DocumentHtml
                id={answerId(entry.id)}
                html={entry.answerHtml}
                className="prose-western border-t border-timber/60 px-5 py-4 text-parchment"
              />
            </details>
          ))}
        </div>
      </section>
    </>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Hopewell · Western Survival Horror LARP" },
  {
    name: "description",
    content: `Hopewell is a western survival and horror larp set in ${GAME_YEAR} Dakota Territory, played at weekend events in New England.`,
  },
];
