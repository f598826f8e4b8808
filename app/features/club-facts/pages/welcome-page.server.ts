import { WelcomeSchema } from "../club-facts.form";
import { pageTextsEditor } from "./page-texts.server";

/**
 * The managers' page for the home page's welcome story (routes/staff/club/welcome.tsx): one
 * formatted text (`text`), a preview as members read it, and the history.
 */
export const welcomePage = pageTextsEditor({
  kind: "welcome",
  name: "the welcome",
  fields: ["text"],
  schema: WelcomeSchema,
  toFields: (content) => ({ text: content }),
  fromFields: (texts) => texts.text,
});
