import { useEffect, useState } from "react";

/**
 * A visible countdown that then sends the browser to `to`. Without JavaScript the page's
 * `<meta http-equiv="refresh">` (see `refreshMeta`) does the same.
 */
export function Countdown({
  seconds,
  to,
  children,
}: {
  seconds: number;
  to: string;
  children: (left: number) => React.ReactNode;
}) {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => {
      const remaining = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setLeft(remaining);
      if (remaining === 0) {
        clearInterval(timer);
        window.location.assign(to);
      }
    }, 250);
    return () => clearInterval(timer);
  }, [seconds, to]);
  return (
    <p aria-live="polite" data-testid="countdown">
      {children(left)}
    </p>
  );
}

/**
 * The timed redirect for browsers without JavaScript: a refresh meta tag inside <noscript>, so a browser that
 * runs scripts (and shows the Countdown) never gets an unannounced refresh.
 */
export function NoScriptRefresh({ seconds, to }: { seconds: number; to: string }) {
  return (
    <noscript>
      <meta httpEquiv="refresh" content={`${seconds};url=${to}`} />
    </noscript>
  );
}
