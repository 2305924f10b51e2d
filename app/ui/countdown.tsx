import { useEffect, useRef } from "react";

/** "1 second", "4 seconds", "0 seconds". */
export const secondsText = (n: number) => `${n} ${n === 1 ? "second" : "seconds"}`;

/** The keyframes that step the shown text from `seconds` down to 1 second, one step a second. */
export function countdownKeyframes(name: string, seconds: number): string {
  const steps = Array.from({ length: seconds }, (_, i) => {
    const at = (i * 100) / seconds;
    return `${Number(at.toFixed(4))}%{content:"${secondsText(seconds - i)}"}`;
  });
  return `@keyframes ${name}{${steps.join("")}100%{content:"${secondsText(1)}"}}`;
}

/** The DOM text is for text browsers; with CSS the shown text is the animated ::after content. */
const countdownCss = (name: string, seconds: number) =>
  `${countdownKeyframes(name, seconds)}` +
  `.countdown[data-countdown-css="${seconds}"]>.countdown-text{display:none}` +
  `.countdown[data-countdown-css="${seconds}"]::after{content:"${secondsText(1)}";` +
  `animation:${name} ${seconds}s steps(1,end) forwards}`;

/**
 * A visible countdown ("5 seconds" … "1 second") that then sends the browser to `to`. The counting is a CSS
 * animation of the shown text, so it runs without JavaScript too (the page's `NoScriptRefresh` then does the
 * redirect). With JavaScript the redirect happens when the animation ends, with a timer as a backup. Without
 * CSS (a text browser) the starting text shows. The text is `before` + "N seconds" + `after`.
 */
export function Countdown({
  seconds,
  to,
  before,
  after,
}: {
  seconds: number;
  to: string;
  before: React.ReactNode;
  after: React.ReactNode;
}) {
  const name = `countdown-${seconds}`;
  const gone = useRef(false);
  const go = () => {
    if (gone.current) return;
    gone.current = true;
    window.location.assign(to);
  };
  const goRef = useRef(go);
  goRef.current = go;
  useEffect(() => {
    const timer = setTimeout(() => goRef.current(), seconds * 1000 + 250);
    return () => clearTimeout(timer);
  }, [seconds]);
  return (
    <>
      <style dangerouslySetInnerHTML={{ __html: countdownCss(name, seconds) }} />
      <p aria-live="polite" data-testid="countdown">
        {before}
        <span className="countdown" data-countdown-css={seconds} onAnimationEnd={() => goRef.current()}>
          <span className="countdown-text">{secondsText(seconds)}</span>
        </span>
        {after}
      </p>
    </>
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
