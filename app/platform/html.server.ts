const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * Text made safe for HTML the server writes by hand (the mail templates, the HTTP layer's own
 * error pages): & < > " ' become entities, so the result may stand in text or in a quoted attribute.
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
