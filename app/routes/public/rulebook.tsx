import type { Route } from "./+types/rulebook";
import { rulebookShown } from "~/features/site/site.server";

/** The club's rulebook (a link, an uploaded PDF, or the built-in one): the address framed, and the one opened on its own. */
export async function loader() {
  return rulebookShown();
}

export default function Rulebook({ loaderData }: Route.ComponentProps) {
  const { frame, open, pdf } = loaderData;
  // `download` only works for our own files.
  const sameSite = open.startsWith("/");
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-center text-5xl">Rulebook</h1>
      <hr className="divider my-6" />
      <p className="mb-6 text-center text-dust">
        Everything a settler needs to know before arriving in Hopewell.
        <span className="hidden sm:inline">
          {" "}
          <a href={open} target="_blank" rel={sameSite ? "noopener" : "noopener noreferrer"}>
            Open the rulebook in its own tab
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
          .
        </span>
      </p>
      {/*
        A phone would scroll a 1500 px frame inside the scrolling page: there the rulebook is
        offered on its own page instead (CSS only, as this page is also served without scripts).
      */}
      <div className="panel flex flex-col items-center gap-4 text-center sm:hidden">
        <p>The rulebook reads best on its own page on a phone{pdf ? ", or saved to read offline" : ""}.</p>
        <a href={open} className="btn btn-primary w-full">
          {pdf ? "Open the rulebook (PDF)" : "Open the rulebook"}
        </a>
        {pdf && sameSite ? (
          <a href={open} download="hopewell-rulebook.pdf" className="btn btn-secondary w-full">
            Download the PDF
          </a>
        ) : null}
      </div>
      <iframe
        src={frame}
        title="Hopewell rulebook"
        className="hidden h-[1500px] w-full rounded-md border border-timber bg-parchment sm:block"
        loading="lazy"
      />
    </div>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Rulebook · Hopewell" },
  {
    name: "description",
    content: "The Hopewell rulebook: safety, combat, crafting, the economy and the factions of 1877 Dakota Territory.",
  },
];
