import { GAME_YEAR } from "./setting";

/**
 * The home page's welcome story as the site ships it (docs/product.md#home-page), a paragraph an
 * item: the starting text managers change at /tools/club/welcome.
 */
export const WELCOME: string[] = [
  `In the spring of ${GAME_YEAR} the Northwest Mineral Corporation struck silver in the Black Hills, and a town grew up around the mine almost overnight. They called it Hopewell. Homesteaders followed the railroad surveyors, soldiers of the US Survey Corp came to keep order, and scholars of the Union Research Initiative arrived with crates of instruments and questions nobody would answer.`,
  "Now the seams run deeper than any map, the winters come early, and miners swear they hear something knocking back from beneath the rock. Supplies are short, the company's prices climb, and every family in town is one bad week from ruin.",
  "You are one of the people who stayed. Work a trade, make what the town needs, keep your neighbours alive and find out what waits at the bottom of the mine before it finds you.",
];
