import MarkdownIt from "markdown-it";

export { FORMATTED_TEXT_HINT, FORMATTED_TEXT_MAX } from "./formatted-text.limits";

/**
 * Text that managers write and members read as formatted text (the club's own pages, messages to
 * members): a small, safe subset of Markdown. Paragraphs (a blank line between), *emphasis* and
 * **strong**, [links](https://…) and lists (lines starting with "-" or "1."); nothing else is read
 * as markup. No HTML passes through: `<script>` or `<img onerror=…>` is shown as the text it is, and
 * a link goes only to an http(s) or mailto: address or to a page of the site, so nothing a manager
 * writes can run script on a member's page. Rendered on the server: the library stays out of the
 * browser's scripts, and a page gets the HTML from its loader.
 */

const SAFE_LINK = /^(https?:\/\/|mailto:|\/(?!\/))/i;

const markdown = new MarkdownIt("zero", { html: false, linkify: false, typographer: false });
// "zero" reads paragraphs and text only; these add the subset above, and escapes (\*) to write a
// character that would otherwise be markup.
markdown.enable(["list", "emphasis", "link", "escape"]);
markdown.validateLink = (url) => SAFE_LINK.test(url.trim());

const renderLinkOpen = markdown.renderer.rules.link_open;
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  const token = tokens[index]!;
  // Another site is not told which page of ours the member came from, nor given a hold on it.
  if (/^(https?:)?\/\//i.test(String(token.attrGet("href") ?? "")))
    token.attrSet("rel", "nofollow noopener noreferrer");
  return renderLinkOpen ? renderLinkOpen(tokens, index, options, env, self) : self.renderToken(tokens, index, options);
};

/** The HTML of a formatted text, safe to put in a page as it is. */
export function formattedTextHtml(source: string): string {
  return markdown.render(source.replace(/\r\n?/g, "\n"));
}
