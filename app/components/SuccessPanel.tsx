import { Icon } from "~/components/Icon";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { SUBMISSION_REDIRECT_SECONDS } from "~/game/rules";
import { NoScriptRefresh } from "./NoScriptRefresh";

/**
 * What a submission screen turns into on success: a message and a visible countdown,
 * then the next page. Without JavaScript a refresh does the same.
 */
export function SuccessPanel({
  title,
  children,
  to,
  destination,
}: {
  title: string;
  children?: React.ReactNode;
  to: string;
  destination: string;
}) {
  const navigate = useNavigate();
  const [secondsLeft, setSecondsLeft] = useState(SUBMISSION_REDIRECT_SECONDS);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    heading.current?.focus();
    const timer = setInterval(() => setSecondsLeft((s) => Math.max(0, s - 1)), 1000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    if (secondsLeft === 0) navigate(to);
  }, [secondsLeft, navigate, to]);

  return (
    <div className="panel text-center" role="status">
      <NoScriptRefresh seconds={SUBMISSION_REDIRECT_SECONDS} to={to} />
      <Icon name="circle-check" className="mx-auto size-12 text-sage" />
      <h2 ref={heading} tabIndex={-1} className="mt-4 text-3xl focus:outline-none">
        {title}
      </h2>
      {children ? <div className="mt-4 text-parchment">{children}</div> : null}
      <p className="mt-6 text-dust">
        Taking you to {destination} in <span data-testid="countdown">{secondsLeft}</span>…
      </p>
    </div>
  );
}
