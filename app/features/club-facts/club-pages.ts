import type { ClubFactKind } from "~/platform/db/schema";

/** The pages of the club's facts, in the order the hub (`/tools/club`) lists them, by the names the tools give them. */
export const CLUB_PAGES: { kind: ClubFactKind; to: string; title: string; about: string }[] = [
  { kind: "welcome", to: "/tools/club/welcome", title: "The Welcome", about: "The story on the home page." },
  { kind: "faq", to: "/tools/club/faq", title: "The FAQ", about: "The questions and answers on the home page." },
  {
    kind: "locations",
    to: "/tools/club/locations",
    title: "The Location Page",
    about: "Directions, arrival and what to expect at the venue.",
  },
  { kind: "rulebook", to: "/tools/club/rulebook", title: "The Rulebook", about: "A link or an uploaded PDF." },
  {
    kind: "merchant",
    to: "/tools/club/merchant",
    title: "The Merchant",
    about: "The price list, its currency, and which events sell what.",
  },
  { kind: "cabins", to: "/tools/club/cabins", title: "The Cabins", about: "The cabins players are given at an event." },
  {
    kind: "factions",
    to: "/tools/club/factions",
    title: "Factions and Jobs",
    about: "What a character may be, and the jobs open to one faction only.",
  },
  {
    kind: "pel-questions",
    to: "/tools/club/pel-questions",
    title: "Post-Event Letter Questions",
    about: "What the post-event letter asks.",
  },
  {
    kind: "application-questions",
    to: "/tools/club/application-questions",
    title: "Application Questions",
    about: "What the application asks.",
  },
];
