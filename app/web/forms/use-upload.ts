import { useEffect, useRef, useState } from "react";

/** How much of an upload has gone: bytes sent of the body's whole. */
export type UploadProgress = { loaded: number; total: number };

/** The server's answer to an upload: its status (0 when the connection failed) and its JSON, if it sent JSON. */
export type UploadAnswer = { status: number; body: Record<string, unknown> | null };

/** The files' bytes in a form's body: what the progress counts toward before the browser reports the whole. */
function filesSize(body: FormData): number {
  let size = 0;
  for (const value of body.values()) if (typeof value !== "string") size += value.size;
  return size;
}

/**
 * Sends a form with its file by XMLHttpRequest, which (unlike fetch) reports the upload's
 * progress as bytes leave: the research and costume forms show it, and a photo on a slow line no
 * longer sits on a static "Uploading…". The route answers in JSON. The forms keep posting as
 * plain forms without JavaScript. A page left mid-upload stops it.
 */
export function useUpload() {
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const current = useRef<XMLHttpRequest | null>(null);
  useEffect(() => () => current.current?.abort(), []);

  function send(url: string, body: FormData): Promise<UploadAnswer> {
    return new Promise((resolve) => {
      const xhr = new XMLHttpRequest();
      current.current = xhr;
      const done = (status: number) => {
        current.current = null;
        setProgress(null);
        let answer: UploadAnswer["body"] = null;
        try {
          const parsed: unknown = JSON.parse(xhr.responseText);
          if (parsed && typeof parsed === "object") answer = parsed as Record<string, unknown>;
        } catch {
          // Not JSON: a refusal before the route (a body past the server's limit is answered with a page).
        }
        resolve({ status, body: answer });
      };
      xhr.open("POST", url);
      xhr.setRequestHeader("Accept", "application/json");
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) setProgress({ loaded: event.loaded, total: event.total });
      };
      xhr.onload = () => done(xhr.status);
      xhr.onerror = () => done(0);
      xhr.onabort = () => done(0);
      setProgress({ loaded: 0, total: filesSize(body) });
      xhr.send(body);
    });
  }

  return { progress, send };
}
