import { useEffect, useState } from "react";
import { SAVE_NOTICE_MS } from "~/game/rules";
import { Alert } from "./ui/Alert";

/** A success notice that disappears after SAVE_NOTICE_MS (3 seconds). Give each save its own `key`. */
export function SavedNotice({ message }: { message: string }) {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(false), SAVE_NOTICE_MS);
    return () => clearTimeout(timer);
  }, []);
  return visible ? <Alert kind="success">{message}</Alert> : null;
}
