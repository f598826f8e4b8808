import fs from "node:fs";
import { VENUE } from "~/game/setting";
import { HOSTED_CAPTCHAS } from "~/platform/captcha.server";
import { config, type Config } from "~/platform/config.server";

/** Where the rulebook viewer points: a configured embed, or the document the site serves. */
export function rulebookSource(cfg: Config = config()): string {
  return cfg.rulebook.embedUrl ?? "/rulebook/document";
}

/** Whether the rulebook is a PDF (configured or embedded), which phones are offered to open or save. */
export function rulebookIsPdf(cfg: Config = config()): boolean {
  if (cfg.rulebook.embedUrl) return /\.pdf(?:$|[?#])/i.test(cfg.rulebook.embedUrl);
  return Boolean(cfg.rulebook.pdfPath && fs.existsSync(cfg.rulebook.pdfPath));
}

/** The venue map: a configured embed, or an OpenStreetMap embed (no key needed). */
export function mapEmbedUrl(cfg: Config = config()): string {
  if (cfg.mapEmbedUrl) return cfg.mapEmbedUrl;
  const { latitude: lat, longitude: lon } = VENUE;
  const bbox = [lon - 0.02, lat - 0.012, lon + 0.02, lat + 0.012].map((n) => n.toFixed(4)).join(",");
  return `https://www.openstreetmap.org/export/embed.html?bbox=${bbox}&layer=mapnik&marker=${lat},${lon}`;
}

export function mapLinkUrl(): string {
  const { latitude: lat, longitude: lon } = VENUE;
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=14/${lat}/${lon}`;
}

/** Directions to the venue in a map app: OpenStreetMap's route planner with the venue as the destination. */
export function directionsUrl(): string {
  const { latitude: lat, longitude: lon } = VENUE;
  return `https://www.openstreetmap.org/directions?route=${encodeURIComponent(`;${lat},${lon}`)}#map=14/${lat}/${lon}`;
}

/** Origins the pages may frame: ours, the rulebook's and the map's. Feeds the CSP. */
export function frameOrigins(cfg: Config = config()): string[] {
  const origins = new Set<string>(["'self'"]);
  for (const url of [rulebookSource(cfg), mapEmbedUrl(cfg)]) {
    if (/^https?:\/\//.test(url)) origins.add(new URL(url).origin);
  }
  const { provider } = cfg.captcha;
  if (provider !== "altcha") for (const origin of HOSTED_CAPTCHAS[provider].origins) origins.add(origin);
  return [...origins];
}

/** Origins scripts may come from besides our own: the hosted CAPTCHA's, when one is configured. */
export function scriptOrigins(cfg: Config = config()): string[] {
  const { provider } = cfg.captcha;
  return provider === "altcha" ? [] : [...HOSTED_CAPTCHAS[provider].origins];
}
