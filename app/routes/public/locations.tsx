import { Icon } from "~/components/Icon";
import type { ReactNode } from "react";
import type { Route } from "./+types/locations";
import { ARRIVAL, VENUE, VENUE_ADDRESS } from "~/game/setting";
import { mapEmbedUrl, mapLinkUrl } from "~/features/site/site.server";

export async function loader() {
  return { mapUrl: mapEmbedUrl(), mapLink: mapLinkUrl() };
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
          <Section id="directions" title="Directions" icon={<Icon name="car" className={iconClass} />}>
            <p>
              Take I-84 to Exit 73 and follow {VENUE.highway} east toward {VENUE.town}. Stay on {VENUE.highway} for
              about three miles, then turn onto Cat Hollow Road and follow the lantern signs to the {VENUE.name} gate.
              Phone signal fades near the site, so load your map before you leave.
            </p>
          </Section>

          <Section id="arrival" title="Arrival Times" icon={<Icon name="calendar-clock" className={iconClass} />}>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
              <dt className="font-bold text-dust">Venue opens</dt>
              <dd>{ARRIVAL.venueOpens}</dd>
              <dt className="font-bold text-dust">Game starts</dt>
              <dd>{ARRIVAL.gameStarts}</dd>
            </dl>
            <p className="mt-3">
              Please arrive at least {ARRIVAL.arriveEarlyHours} hour early to check in, unpack, settle into your cabin
              and get into costume before the game begins.
            </p>
          </Section>
        </div>

        <Section id="venue-info" title="Venue Information" icon={<Icon name="tent" className={iconClass} />}>
          <ul className="list-disc space-y-2 pl-5">
            <li>
              <strong>On-site parking</strong> in the field by the gate; follow the staff's directions on arrival.
            </li>
            <li>
              <strong>Camping areas</strong> for players who prefer a tent to a cabin bunk.
            </li>
            <li>
              <strong>Basic amenities</strong>: cabins with bunks, restrooms and drinking water. Bring your own bedding.
            </li>
            <li>
              <strong>Emergency services nearby</strong>: the nearest hospital is a short drive away, and staff on site
              know the route.
            </li>
          </ul>
        </Section>

        <Section id="notes" title="Important Notes" icon={<Icon name="cloud-lightning" className={iconClass} />}>
          <ul className="list-disc space-y-2 pl-5">
            <li>
              <strong>Weather</strong>: New England weather changes fast. Pack rain gear, warm layers for the night and
              sturdy boots for wet trails.
            </li>
            <li>
              <strong>Updates</strong>: registered players receive news and any changes by email before each event.
            </li>
          </ul>
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
