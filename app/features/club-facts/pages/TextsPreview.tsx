/**
 * A page's texts as members will read them, before they are saved: each made by
 * formattedTextHtml on the server (only the safe subset, no HTML of the writer's), under its
 * section's title when the page has several.
 */
export function TextsPreview({
  preview,
  titles,
}: {
  preview: Record<string, string>;
  /** Each field's section title, in the page's order; none for a page of one text. */
  titles?: Record<string, string>;
}) {
  const fields = titles ? Object.keys(titles) : Object.keys(preview);
  return (
    <section aria-labelledby="preview-heading" className="panel flex flex-col gap-4">
      <h2 id="preview-heading" className="text-2xl">
        Preview: not saved yet
      </h2>
      {fields.map((field) => (
        <div key={field} className="flex flex-col gap-2">
          {titles ? <h3 className="text-xl">{titles[field]}</h3> : null}
          <div className="prose-western text-lg" dangerouslySetInnerHTML={{ __html: preview[field] ?? "" }} />
        </div>
      ))}
    </section>
  );
}
