import type sharpModule from "sharp";

/**
 * Photos as the site keeps them, made with sharp (libvips). Every upload is decoded and encoded
 * again: what is stored and served carries none of the original's metadata (EXIF with the
 * camera's GPS position, XMP, comments), only pixels, turned upright first as the camera's
 * orientation tag said. A thumbnail is made beside it for the pages that list photos.
 */

type Sharp = typeof sharpModule;
let loading: Promise<Sharp> | undefined;

/**
 * libvips is loaded with the first photo, not at start: the server would otherwise hold about
 * 25 MB for it while idle, and most of its life passes without an upload.
 */
function loadSharp(): Promise<Sharp> {
  return (loading ??= import("sharp").then(({ default: sharp }) => {
    // The server has little memory to spare and two cores shared with every request: no kept
    // decoded images, and one libvips thread per image.
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  }));
}

/** More pixels than this is refused before decoding: a small file can claim an enormous image. */
export const MAX_INPUT_PIXELS = 50_000_000;
/** The stored photo fits in this square (a phone's 48-megapixel photo is made smaller). */
export const PHOTO_MAX_SIDE = 2560;
/** Thumbnails fit in this square: twice the size they are shown at, for sharp screens. */
export const THUMB_MAX_SIDE = 480;

export type PhotoType = "image/jpeg" | "image/png";

export type ProcessedPhoto = { photo: Buffer; thumb: Buffer; width: number; height: number; type: PhotoType };

export type PhotoOutcome =
  { ok: true; processed: ProcessedPhoto } | { ok: false; reason: "unreadable" | "too-many-pixels" };

/**
 * Decodes the photo in the file at `input` (already judged JPEG or PNG by content; libvips reads
 * it from disk) and makes the stored photo and its thumbnail.
 */
export async function processPhoto(input: string, type: PhotoType): Promise<PhotoOutcome> {
  const sharp = await loadSharp();
  try {
    const { width = 0, height = 0 } = await sharp(input, { limitInputPixels: false }).metadata();
    if (width * height > MAX_INPUT_PIXELS) return { ok: false, reason: "too-many-pixels" };
    const upright = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
      .autoOrient()
      .resize({ width: PHOTO_MAX_SIDE, height: PHOTO_MAX_SIDE, fit: "inside", withoutEnlargement: true });
    // No keepMetadata/withMetadata: sharp writes the pixels alone.
    const encoded = type === "image/png" ? upright.png({ compressionLevel: 6 }) : upright.jpeg({ quality: 88 });
    const { data: photo, info } = await encoded.toBuffer({ resolveWithObject: true });
    const thumb = await sharp(photo)
      .resize({ width: THUMB_MAX_SIDE, height: THUMB_MAX_SIDE, fit: "inside", withoutEnlargement: true })
      // A transparent PNG's thumbnail (a JPEG) gets the site's parchment behind it.
      .flatten({ background: "#efe4cc" })
      .jpeg({ quality: 80 })
      .toBuffer();
    return { ok: true, processed: { photo, thumb, width: info.width, height: info.height, type } };
  } catch {
    // Not an image libvips can decode, though it starts like one (a truncated or forged file).
    return { ok: false, reason: "unreadable" };
  }
}
