/**
 * The player application's built-in written questions (docs/product.md#the-application), in order:
 * the starting list of the club's questions (features/club-facts/questions), which managers change
 * at `/tools/club/application-questions`, and the wording every application made before then was
 * asked with (migration 0027, the old site's import). The form asks the club's current list.
 */
export const APPLICATION_TEXT_QUESTIONS = [
  {
    key: "larpExperience",
    label: "What larp experience do you have?",
    hint: "Games you have played or run, and for how long. None at all is fine: tell us what draws you to larping.",
  },
  {
    key: "inCharacterPreference",
    label: "How much of a weekend do you like to spend in character?",
    hint: "Hopewell runs in character from Friday night to Sunday. How immersive do you like your play?",
  },
  {
    key: "physicalActivityAcknowledgment",
    label:
      "Hopewell is played outdoors, at night, on uneven trails and in New England weather. Are you able to take part, and is there anything we should plan for?",
    hint: "Mobility, medical or dietary needs help us look after you; they stay with the organisers.",
  },
  { key: "icOcSeparation", label: "How do you keep in-character conflict separate from out-of-character friendships?" },
  {
    key: "phobiaHandling",
    label:
      "This is a horror game. Do you have phobias or triggers we should know about, and how would you like them handled?",
  },
  {
    key: "nonBreakingExit",
    label: "If a scene becomes too much, how would you step out of it without stopping the game for everyone else?",
  },
  {
    key: "plotEngagement",
    label: "How do you like to engage with plot?",
    hint: "Chasing mysteries, following others, making your own trouble, or something else.",
  },
  {
    key: "larpTypes",
    label: "What kinds of larps do you enjoy most?",
    hint: "For example survival, horror, political, combat-heavy, crafting or theatre-style games.",
  },
  { key: "larpPriorities", label: "What matters most to you in a weekend of larping?" },
  {
    key: "physicalRoleplayComfort",
    label: "How comfortable are you with physical roleplay, and where are your limits?",
    hint: "A hand on the shoulder, being carried when wounded, being grabbed by something in the dark.",
  },
  { key: "characterDeathStance", label: "How do you feel about your character dying for good?" },
  { key: "cheatingResponse", label: "What would you do if you saw another player cheating?" },
  { key: "plotDiscomfortHandling", label: "What would you do if a plot line made you uncomfortable out of character?" },
  {
    key: "complaintHandling",
    label: "If you had a complaint about another player or a member of staff, how would you raise it?",
  },
  { key: "referralSource", label: "How did you hear about Hopewell?" },
] as const;

export const DISCORD_TAG_QUESTION = {
  label: "Your Discord username",
  hint: "Staff reach players on our Discord community; we will invite you once you are accepted.",
};

export const ROLE_PREFERENCE_QUESTION = {
  label: "Would you like to join as a player or as cast?",
  options: [
    { value: "player", label: "Player", hint: "Live in Hopewell as a settler of your own making." },
    { value: "cast", label: "Cast", hint: "Play the townsfolk, strangers and horrors the players meet." },
  ],
} as const;

/** The longest answer kept; a few pages of writing. */
export const APPLICATION_ANSWER_MAX = 5_000;
