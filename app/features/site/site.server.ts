import fs from "node:fs";
import { currentFacts } from "~/features/club-facts/club-facts.server";
import { VENUE } from "~/game/setting";
import { HOSTED_CAPTCHAS } from "~/platform/captcha.server";
import { config, type Config } from "~/platform/config.server";

/**
 * The rulebook the site shows is the club's choice (kind "rulebook", changed on
 * /tools/club/rulebook): a link, a PDF a manager uploaded, or the built-in one, which is the
 * operator's RULEBOOK_EMBED_URL or RULEBOOK_PDF when set, else the shipped document.
 */
const DOCUMENT = "/rulebook/document";
const isPdfAddress = (url: string) => /\.pdf(?:$|[?#])/i.test(url);

/** The built-in rulebook's address: a configured embed, or the document the site serves. */
function builtInRulebookSource(cfg: Config = config()): string {
  return cfg.rulebook.embedUrl ?? DOCUMENT;
}

/**
 * The site's own document, named for the version chosen: a browser that kept an earlier one
 * (for five minutes) asks again once a manager changes the rulebook.
 */
const documentOf = (version: number) => (version === 0 ? DOCUMENT : `${DOCUMENT}?v=${version}`);

/** What the rulebook viewer shows: the address it frames, the one opened on its own page, and whether it is a PDF. */
export type RulebookShown = { frame: string; open: string; pdf: boolean };

export async function rulebookShown(cfg: Config = config()): Promise<RulebookShown> {
  const { version, content } = await currentFacts("rulebook");
  switch (content.source) {
    // Framed by the site's document (with that one origin allowed to be framed), so the pages'
    // Content-Security-Policy, made at start-up, need not know every address a manager gives.
    case "link":
      return { frame: documentOf(version), open: content.url, pdf: isPdfAddress(content.url) };
    case "file":
      return { frame: documentOf(version), open: documentOf(version), pdf: true };
    default: {
      const source = cfg.rulebook.embedUrl ?? documentOf(version);
      return { frame: source, open: source, pdf: builtInRulebookIsPdf(cfg) };
    }
  }
}

/** Whether the built-in rulebook is a PDF (the operator's RULEBOOK_PDF, or an embed of one). */
function builtInRulebookIsPdf(cfg: Config): boolean {
  if (cfg.rulebook.embedUrl) return isPdfAddress(cfg.rulebook.embedUrl);
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
  for (const url of [builtInRulebookSource(cfg), mapEmbedUrl(cfg)]) {
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
