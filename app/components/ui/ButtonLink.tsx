import { Link } from "~/components/Link";
import type { ComponentProps } from "react";

type Variant = "primary" | "secondary";

export function ButtonLink({
  variant = "primary",
  className = "",
  ...props
}: ComponentProps<typeof Link> & { variant?: Variant }) {
  return <Link {...props} className={`btn btn-${variant} ${className}`} />;
}
