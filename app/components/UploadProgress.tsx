import { formatBytes } from "~/lib/bytes";

/** The steps a screen reader hears the upload reach: every quarter, not every few kilobytes. */
const SPOKEN_STEP = 25;

/**
 * An upload's progress: the bytes sent of the whole and a bar, as they go. Screen readers hear
 * it politely, a quarter at a time, from a live region that is in the page before the upload
 * starts (so the first step is heard), and once all is sent that the server is checking it.
 */
export function UploadProgress({
  id,
  progress,
  checking,
}: {
  id: string;
  progress: { loaded: number; total: number } | null;
  /** What the server does with the file once it has it all ("Checking the photo…"). */
  checking: string;
}) {
  const total = Math.max(progress?.total ?? 0, progress?.loaded ?? 0);
  const percent = progress && total > 0 ? Math.min(100, Math.floor((progress.loaded / total) * 100)) : 0;
  const sent = progress !== null && total > 0 && progress.loaded >= total;
  const spoken = progress
    ? sent
      ? `Sent. ${checking}`
      : `Uploading: ${Math.floor(percent / SPOKEN_STEP) * SPOKEN_STEP}% sent`
    : "";
  return (
    <div className="flex flex-col gap-1">
      <p role="status" className="sr-only">
        {spoken}
      </p>
      {progress ? (
        <div className="flex flex-col gap-1" data-testid="upload-progress">
          <label htmlFor={id} className="text-sm">
            {sent
              ? `Sent ${formatBytes(total)}. ${checking}`
              : `Uploading… ${formatBytes(progress.loaded)} of ${formatBytes(total)} (${percent}%)`}
          </label>
          <progress
            id={id}
            max={Math.max(total, 1)}
            value={progress.loaded}
            className="h-3 w-full appearance-none overflow-hidden rounded-full border border-timber bg-ink [&::-moz-progress-bar]:bg-brass [&::-webkit-progress-bar]:bg-ink [&::-webkit-progress-value]:bg-brass"
          />
        </div>
      ) : null}
    </div>
  );
}
