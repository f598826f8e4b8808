import { COSTUME_PHOTO_WEEKS_BEFORE, GAME_YEAR } from "./setting";

export type FaqEntry = { id: string; question: string; answer: string[] };

/** The home page's frequently asked questions (docs/product.md#home-page). */
export const FAQ: FaqEntry[] = [
  {
    id: "become-a-player",
    question: "How do I become a player?",
    answer: [
      "Create an account on this website and fill out the application. It asks about your larp experience, how you like to play and how you handle the darker parts of a horror game.",
      "A manager reads every application. Once yours is accepted you can build your character, see upcoming events and buy a ticket.",
    ],
  },
  {
    id: "game-type",
    question: "What kind of game is Hopewell?",
    answer: [
      `Hopewell is a low-combat larp of survival, crafting and horror, set in ${GAME_YEAR} in a struggling mining town in Dakota Territory. Most of a weekend is spent keeping the town fed, warm and supplied: working a trade, trading goods and making real props by hand.`,
      "When the dark comes, it comes hard. Conflict is settled with latex melee weapons and a foam dart gun system, and the scares are built on atmosphere, practical effects and props rather than constant fighting.",
    ],
  },
  {
    id: "progression",
    question: "Will my character level up?",
    answer: [
      "No. There is no traditional power progression: no experience points, levels or skill trees. Your character grows through what they learn, the tools and goods they make or buy, the friends and enemies they keep, and the stories they survive.",
    ],
  },
  {
    id: "weapons",
    question: "What weapons can I bring?",
    answer: [
      "Only latex (boffer-safe) weapons and unmodded foam dart guns are allowed. Every weapon is checked before play; modified blasters, real blades and realistic firearm replicas are not permitted on site.",
      "Weapons and starting items are not free in the fiction: anything your character starts with must be paid for with in-game currency, Hopewell Dollars, so plan your purchases with your character's means.",
    ],
  },
  {
    id: "lore",
    question: "How much lore do I need to know?",
    answer: [
      "None to start. Your character is new to Hopewell or has lived an ordinary frontier life, so you learn the town's secrets by playing: talking to other settlers, writing letters, submitting research between events and surviving what walks the hills at night.",
      "The rulebook covers the setting's basics, the factions and the trades. Everything else is for you to uncover.",
    ],
  },
  {
    id: "historical-issues",
    question: "How does the game handle the history of the period?",
    answer: [
      "Hopewell borrows the look, tools and hardships of the 1870s frontier, not its prejudices. Racism, sexism and other real-world bigotry are not part of play, and no one is treated differently in game because of who they are out of game.",
      "The land the town stands on was taken from the Lakota. We treat that history with respect: Native cultures and spiritual practices are not used as props, costumes or monsters.",
    ],
  },
  {
    id: "costumes",
    question: "What should I wear?",
    answer: [
      "Western period clothing: work shirts, vests, long skirts, trousers, boots, hats and coats that look at home in the 1870s. No visible logos or brands and no obviously modern clothing; cover or swap out anything that breaks the look.",
      `Accepted players send a photo of their costume at least ${COSTUME_PHOTO_WEEKS_BEFORE} weeks before each event so staff can help with anything that needs changing. Bring layers: New England nights are cold.`,
    ],
  },
];
