import type { Route } from "./+types/rulebook";
import { rulebookSource } from "~/server/site.server";

export async function loader() {
  return { source: rulebookSource() };
}

export default function Rulebook({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-center text-5xl">Rulebook</h1>
      <hr className="divider my-6" />
      <p className="mb-6 text-center text-dust">
        Everything a settler needs to know before arriving in Hopewell.{" "}
        <a href={loaderData.source} target="_blank" rel="noopener">
          Open the rulebook in its own tab
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
        .
      </p>
      <iframe
        src={loaderData.source}
        title="Hopewell rulebook"
        className="h-[1500px] w-full rounded-md border border-timber bg-parchment"
        loading="lazy"
      />
    </div>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Rulebook · Hopewell" },
  { name: "description", content: "The Hopewell rulebook: safety, combat, crafting, the economy and the factions of 1877 Dakota Territory." },
];
