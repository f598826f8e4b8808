import { z } from "zod";
import { COSTUME_NOTE_MAX, COSTUME_PHOTOS_PER_EVENT, COSTUME_VERDICTS } from "~/game/costume";
import { UPLOAD_MAX_BYTES } from "~/game/rules";
import { isMemberId, isUuid } from "~/lib/ids";
import { optionalTextField } from "~/web/forms/kernel";

/** Costume photos: the member's page (/costume) and staff's review (/view-costumes). */
export const COSTUME_MESSAGES = {
  chooseFile: "Please choose a photo to upload",
  fileType: "Please upload a JPG or PNG photo",
  fileSize: "Photos must be less than 5MB",
  unreadable: "This photo could not be read. Please send another JPG or PNG.",
  tooManyPixels: "This photo has too many pixels. Please send one of at most 50 megapixels.",
  notRegistered: "You can send costume photos only for upcoming events you are registered for",
  tooMany: `You have sent ${COSTUME_PHOTOS_PER_EVENT} photos for this event. Remove one before adding another.`,
  uploaded: "Photo uploaded. Staff will review it.",
  removed: "Photo removed.",
  noSuchPhoto: "That photo is no longer there.",
  failed: "Your photo could not be saved. Please try again.",
  loadFailed: "Failed to load costume photos",
  noteRequired: "Please write a note saying what to change",
  noPhotos: "There is no photo to review for this member.",
  newPhotos: "New photos arrived since you opened this page. Please look at them before deciding.",
  decidedSince:
    "Someone gave a verdict on these photos since you opened this page. Please look at it before deciding again.",
  approved: "Approved. The player sees it on their costume page.",
  changesRequested: "Changes requested. The player sees your note on their costume page.",
  reviewFailed: "The verdict could not be saved. Please try again.",
} as const;

/** What is wrong with a chosen file by its size (the server then judges its content). */
export function photoProblem(file: { size: number } | null | undefined): string | null {
  if (!file || file.size === 0) return COSTUME_MESSAGES.chooseFile;
  if (file.size > UPLOAD_MAX_BYTES) return COSTUME_MESSAGES.fileSize;
  return null;
}

/** Removing one of one's own photos. */
export const RemovePhotoForm = z.object({
  intent: z.literal("remove"),
  photoId: z.string().refine(isUuid, COSTUME_MESSAGES.noSuchPhoto),
});

/** A staff verdict on one member's photos for one event. */
export const CostumeVerdictForm = z
  .object({
    verdict: z.enum(COSTUME_VERDICTS, { error: "Please choose Approve or Ask for changes" }),
    userId: z.string().refine(isMemberId, COSTUME_MESSAGES.noPhotos),
    eventId: z.string().refine(isUuid, COSTUME_MESSAGES.noPhotos),
    /** The newest photo staff saw: a newer one means they decide on photos they have not seen. */
    latestPhotoId: z.string().refine(isUuid, COSTUME_MESSAGES.newPhotos),
    /** When the verdict staff saw was given ("" for none): a later one means someone decided since. */
    decidedOver: z.string().max(40, COSTUME_MESSAGES.decidedSince).default(""),
    note: optionalTextField(
      COSTUME_NOTE_MAX,
      `Please keep the note to ${COSTUME_NOTE_MAX.toLocaleString("en-US")} characters or fewer`,
    ),
  })
  .refine((form) => form.verdict !== "changes_requested" || form.note.length > 0, {
    message: COSTUME_MESSAGES.noteRequired,
    path: ["note"],
  });
export type CostumeVerdictInput = z.infer<typeof CostumeVerdictForm>;
