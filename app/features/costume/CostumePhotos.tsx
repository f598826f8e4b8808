import type { ReactNode } from "react";
import { COSTUME_STATUS_LABELS, type CostumeStatus } from "~/game/costume";
import { formatClubTime } from "~/lib/dates";

const BADGE: Record<CostumeStatus, string> = {
  missing: "border-dust text-dust",
  waiting: "border-brass text-brass",
  changes_requested: "border-blood text-blood",
  approved: "border-sage text-sage",
};

/** Where a costume stands: no photo yet, waiting for review, changes requested, approved. */
export function CostumeStatusBadge({ status }: { status: CostumeStatus }) {
  return (
    <span
      className={`inline-block rounded-full border px-3 py-0.5 text-sm font-bold ${BADGE[status]}`}
      data-testid="costume-status"
    >
      {COSTUME_STATUS_LABELS[status]}
    </span>
  );
}

type Photo = { id: string; createdAt: string; width: number; height: number };

/**
 * Thumbnails of costume photos, each opening the whole photo in a new tab. `whose` starts their
 * descriptions ("Your", "Ada Fox's"); `extra` adds something under a photo (the owner's Remove button), told which photo it is of how many.
 */
export function CostumePhotoGrid({
  photos,
  whose,
  extra,
}: {
  photos: Photo[];
  whose: string;
  extra?: (photo: Photo, place: string) => ReactNode;
}) {
  if (photos.length === 0) return null;
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label={`${whose} costume photos`}>
      {photos.map((photo, index) => (
        <li key={photo.id} className="flex flex-col gap-2">
          <a
            href={`/costume/photos/${photo.id}`}
            target="_blank"
            rel="noopener"
            className="block overflow-hidden rounded-md border border-timber bg-ink"
          >
            <img
              src={`/costume/photos/${photo.id}/thumb`}
              alt={`${whose} costume, ${index + 1} of ${photos.length}, sent ${formatClubTime(photo.createdAt)} (opens in a new tab)`}
              width={240}
              height={240}
              loading="lazy"
              className="aspect-square w-full object-cover"
            />
          </a>
          {extra ? extra(photo, `${index + 1} of ${photos.length}`) : null}
        </li>
      ))}
    </ul>
  );
}
