import type { ReactNode } from "react";
import { Link } from "~/components/Link";
import { recordListPath, type RecordFilter } from "./record";

/** A form page's way to what the member sent before: their record, showing that kind. */
export function RecordLink({ kind, children }: { kind: RecordFilter; children: ReactNode }) {
  return (
    <Link to={recordListPath(kind)} data-testid="record-link">
      {children}
    </Link>
  );
}
