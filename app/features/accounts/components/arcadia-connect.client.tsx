import "./regenerator-global.client";
import { useConnect, type ArcadiaConnectStatus } from "@arcadia-eng/connect-react";
import { useEffect, useRef, useState } from "react";
import { ARCADIA_PACKAGE_SCRIPT_URL } from "~/lib/arcadia-connect";

/**
 * The provider's Connect, opened with its own React package (browser only: the package's bundle reads `self`
 * when it loads, so this module is `.client`: the server build gets an empty module and the page renders the
 * no-JavaScript button until hydration).
 *
 * ADR 0024, the one place we go around a library: the package loads Connect from a hard-coded production URL,
 * and takes an existing `<script src="that URL">` as loaded (then polls `window._ArcConnect` for 300 ms). When
 * the configured script URL is another one (the simulator, in the demo and the tests), `loadConfiguredScript`
 * loads that script first and leaves a non-executing marker with the package's URL, so the package finds
 * `_ArcConnect` and never fetches the production script. With the package's own URL configured (a deployment),
 * nothing is done and the package loads its script itself.
 *
 * Only the connect page's route imports this module (the package stays out of every other page's chunks), and
 * regenerator-global.client.ts is imported first (the package's bundle would otherwise reach for eval).
 */
const MARKER = "data-arcadia-connect-marker";
let loading: Promise<void> | null = null;

export function loadConfiguredScript(scriptUrl: string): Promise<void> {
  if (scriptUrl === ARCADIA_PACKAGE_SCRIPT_URL) return Promise.resolve();
  const w = window as unknown as { _ArcConnect?: unknown };
  if (w._ArcConnect && document.querySelector(`script[${MARKER}]`)) return Promise.resolve();
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = scriptUrl;
    script.async = true;
    script.onload = () => {
      // Not executed (type text/plain): only for the package's "already on the page" check.
      const marker = document.createElement("script");
      marker.type = "text/plain";
      marker.setAttribute(MARKER, "");
      marker.src = ARCADIA_PACKAGE_SCRIPT_URL;
      document.head.appendChild(marker);
      resolve();
    };
    script.onerror = () => {
      loading = null;
      reject(new Error("Connect's script did not load"));
    };
    document.head.appendChild(script);
  });
  return loading;
}

export type ArcadiaConnectProps = {
  scriptUrl: string;
  connectToken: string;
  env: "sandbox" | "production";
  /** New connection: the utility Connect opens on; update mode (a stored credential) passes none. */
  utilityId?: string;
  label: string;
  /** Connect may not open yet (the MFA acknowledgement is not ticked). */
  disabled?: boolean;
  /** Connect closed after a submission: the provider's credential id and how Connect says it ended. */
  onSubmitted: (utilityCredentialId: string, status: ArcadiaConnectStatus) => void;
  /** Connect closed without a submission (`no_submit`) gives null; a failure its status or error. */
  onProblem: (status: ArcadiaConnectStatus | "script") => void;
};

/** Loads the configured script (above), then renders the button that opens Connect. */
export function ArcadiaConnectButton(props: ArcadiaConnectProps) {
  const [ready, setReady] = useState(props.scriptUrl === ARCADIA_PACKAGE_SCRIPT_URL);
  const { scriptUrl, onProblem } = props;
  const problem = useRef(onProblem);
  problem.current = onProblem;
  useEffect(() => {
    let live = true;
    loadConfiguredScript(scriptUrl).then(
      () => live && setReady(true),
      () => live && problem.current("script"),
    );
    return () => {
      live = false;
    };
  }, [scriptUrl]);
  if (!ready)
    return (
      <button type="button" className="btn" disabled>
        {props.label}
      </button>
    );
  return <Opener {...props} />;
}

function Opener({
  connectToken,
  env,
  utilityId,
  label,
  disabled,
  onSubmitted,
  onProblem,
}: ArcadiaConnectProps) {
  const [{ loading, error }, open] = useConnect();
  // The latest callbacks (Connect keeps the ones it was opened with); none after this step has gone.
  const handlers = useRef({ onSubmitted, onProblem });
  handlers.current = { onSubmitted, onProblem };
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    if (error) handlers.current.onProblem("script");
  }, [error]);
  return (
    <button
      type="button"
      className="btn"
      disabled={disabled || loading || Boolean(error)}
      onClick={() => {
        let submitted: string | null = null;
        void open({
          connectToken,
          env,
          ...(utilityId ? { newCredentialData: { utilityId } } : {}),
          callbacks: {
            // The credential exists at the provider; how it ended is Connect's to say when it closes.
            onCredentialsSubmitted: ({ utilityCredentialId }) => {
              submitted = String(utilityCredentialId);
            },
            onError: () => {
              if (mounted.current && submitted === null) handlers.current.onProblem("error");
            },
            onClose: ({ status }) => {
              if (!mounted.current) return;
              // After a submission the step moves on by its verdict (rule connect-close-outcome).
              if (submitted !== null) handlers.current.onSubmitted(submitted, status);
              else if (status !== "no_submit") handlers.current.onProblem(status);
            },
          },
        });
      }}
    >
      {label}
    </button>
  );
}
