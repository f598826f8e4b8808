import { Icon } from "~/components/Icon";
import type { ReactNode } from "react";
import type { Route } from "./+types/locations";
import { ARRIVAL, VENUE, VENUE_ADDRESS } from "~/game/setting";
import { LOCATION_SECTIONS, type LocationSection } from "~/features/club-facts/pages/location-sections";
import { DocumentHtml } from "~/components/DocumentHtml";
import { htmlOnce } from "~/web/document-html.server";
import { locationsAsShown } from "~/features/club-facts/pages/locations.server";
import { mapEmbedUrl, mapLinkUrl } from "~/features/site/site.server";

/**
 * The venue's address, map and arrival times are the site's; the sections' words are the club's
 * (kind "locations"), made into HTML once for each version. Signed out, the page is rendered once
 * and served from memory until a manager saves them (http/pipeline/anonymous-cache.ts).
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const shown = await locationsAsShown();
  const texts = Object.fromEntries(
    SECTIONS.map((section) => [section, htmlOnce(context, request, textId(section), shown[section])]),
  ) as Record<LocationSection, string | null>;
  return { mapUrl: mapEmbedUrl(), mapLink: mapLinkUrl(), texts };
}

const SECTIONS = Object.keys(LOCATION_SECTIONS) as LocationSection[];
const textId = (section: LocationSection) => `${section}-text`;

/**
 * A section's words as the club wrote them: made by formattedTextHtml on the server, only the safe
 * subset, and carried in a signed-in member's page once (DocumentHtml).
 */
function ClubText({
  section,
  texts,
  className,
}: {
  section: LocationSection;
  texts: Record<LocationSection, string | null>;
  className?: string;
}) {
  return (
    <DocumentHtml
      id={textId(section)}
      html={texts[section]}
      className={`prose-western [&_li+li]:mt-2 [&_ul]:pl-5${className ? ` ${className}` : ""}`}
    />
  );
}

function Section({ id, title, icon, children }: { id: string; title: string; icon: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="panel">
      <h2 id={id} className="flex items-center gap-3 text-2xl">
        {icon}
        {title}
      </h2>
      <div className="mt-4 text-parchment">{children}</div>
    </section>
  );
}

const iconClass = "size-6 shrink-0 text-rust";

export default function Locations({ loaderData }: Route.ComponentProps) {
  const { texts } = loaderData;
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-center text-5xl">Game Location</h1>
      <hr className="divider my-6" />

      <div className="grid gap-6 lg:grid-cols-2">
        <Section id="venue" title={VENUE.name} icon={<Icon name="map-pin" className={iconClass} />}>
          <address className="not-italic">
            {VENUE.street}
            <br />
            {VENUE.town}, {VENUE.state} {VENUE.postalCode}
          </address>
          <iframe
            src={loaderData.mapUrl}
            title={`Map of ${VENUE.name}, ${VENUE_ADDRESS}`}
            className="mt-4 h-72 w-full rounded border border-timber bg-ash"
            loading="lazy"
            referrerPolicy="no-referrer"
          />
          <p className="mt-2 text-sm">
            <a href={loaderData.mapLink} target="_blank" rel="noopener noreferrer">
              Open a larger map<span className="sr-only"> (opens in a new tab)</span>
            </a>
          </p>
        </Section>

        <div className="flex flex-col gap-6">
          <Section
            id="directions"
            title={LOCATION_SECTIONS.directions}
            icon={<Icon name="car" className={iconClass} />}
          >
            <ClubText section="directions" texts={texts} />
          </Section>

          <Section
            id="arrival"
            title={LOCATION_SECTIONS.arrival}
            icon={<Icon name="calendar-clock" className={iconClass} />}
          >
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
              <dt className="font-bold text-dust">Venue opens</dt>
              <dd>{ARRIVAL.venueOpens}</dd>
              <dt className="font-bold text-dust">Game starts</dt>
              <dd>{ARRIVAL.gameStarts}</dd>
            </dl>
            <ClubText section="arrival" texts={texts} className="mt-3" />
          </Section>
        </div>

        <Section id="venue-info" title={LOCATION_SECTIONS.venue} icon={<Icon name="tent" className={iconClass} />}>
          <ClubText section="venue" texts={texts} />
        </Section>

        <Section
          id="notes"
          title={LOCATION_SECTIONS.notes}
          icon={<Icon name="cloud-lightning" className={iconClass} />}
        >
          <ClubText section="notes" texts={texts} />
        </Section>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Game Location · Hopewell" },
  {
    name: "description",
    content: `Hopewell events are played at ${VENUE.name}, ${VENUE_ADDRESS}. Directions, arrival times and what to expect at the venue.`,
  },
];
