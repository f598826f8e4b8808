import { Icon } from "~/components/Icon";

/**
 * A tap-to-call link to an emergency contact: the number as typed is shown, the link dials its
 * digits alone, and a screen reader hears whom it calls.
 */
export function CallLink({
  name,
  phone,
  className,
  iconClassName,
}: {
  name: string;
  phone: string;
  className: string;
  iconClassName: string;
}) {
  return (
    <a href={`tel:${phone.replace(/[^\d+]/g, "")}`} className={className}>
      <Icon name="phone" className={iconClassName} />
      <span>
        <span className="sr-only">Call {name} on </span>
        {phone}
      </span>
    </a>
  );
}
