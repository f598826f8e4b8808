/** A size as people read it: "820 KB", "4.1 MB" (1 MB = 1,048,576 bytes, as the upload limits count). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(bytes === 0 ? 0 : 1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
