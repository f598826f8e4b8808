import { APPLICATION_ANSWER_MAX } from "~/game/application";
import { PEL_ANSWER_MAX } from "~/game/pel";
import { TEXTAREA_ROWS } from "~/game/rules";

/** What differs between the two pages of the club's questions: their names, and the form each changes. */
export const QUESTION_PAGES = {
  "pel-questions": {
    title: "Post-Event Letter Questions",
    about:
      "What the post-event letter asks after an event, after the event and the character's name. Every letter keeps the questions as they were when it was written.",
    form: { to: "/pels", name: "the post-event letter" },
    saved: "the post-event letter's questions are now",
    save: "Save the letter's questions",
    rows: TEXTAREA_ROWS.pel,
    max: PEL_ANSWER_MAX,
  },
  "application-questions": {
    title: "Application Questions",
    about:
      "What the application asks, after the applicant's Discord name and whether they want to play or join the cast. Every application keeps the questions as they were when it was made.",
    form: { to: "/application", name: "the application" },
    saved: "the application's questions are now",
    save: "Save the application's questions",
    rows: TEXTAREA_ROWS.application,
    max: APPLICATION_ANSWER_MAX,
  },
} as const;
