/**
 * The start of a text for a line in a list: whole when it fits in `maxChars`, otherwise cut at
 * the last space within them and ended with an ellipsis, so a preview never stops mid-word
 * without saying there is more. A text with no space to cut at (one long word) is cut at
 * `maxChars`. Give it at least `maxChars + 1` characters of the text, so it can tell whether
 * anything was left out.
 */
export function previewOf(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars + 1);
  const lastSpace = cut.search(/\s\S*$/);
  const kept = lastSpace > 0 ? cut.slice(0, lastSpace) : cut.slice(0, maxChars);
  return `${kept.trimEnd()}…`;
}
