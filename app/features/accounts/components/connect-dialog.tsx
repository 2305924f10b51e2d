import { useFetcher, type FormProps } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { UrlDialog } from "~/ui/url-dialog";
import { SubmissionSource } from "~/ui/pending";
import {
  ConnectFlow,
  type ConnectActionData,
  type ConnectFlowData,
  type ConnectFlowNav,
} from "~/features/accounts/components/connect-flow";

const embedUrl = (href: string) => `${href}${href.includes("?") ? "&" : "?"}embed=1`;

/**
 * The connect flow in the shell's Radix Dialog (JavaScript only: without it the shell links to the
 * /authorize-arcadia page). Every step is fetched from that route with `embed=1`, so the flow stays in the
 * dialog; the page and the dialog share the same loader, action and components.
 */
export function ConnectDialog({
  open,
  closeHref,
  building = null,
}: {
  open: boolean;
  closeHref: string;
  /** The location the dialog was opened for (rule connect-keeps-location): the flow starts with it chosen. */
  building?: number | null;
}) {
  const fetcher = useFetcher<ConnectFlowData | ConnectActionData>({ key: "connect-utility-dialog" });
  const [flow, setFlow] = useState<ConnectFlowData | null>(null);
  const [actionData, setActionData] = useState<ConnectActionData>(undefined);
  const loadRef = useRef(fetcher.load);
  loadRef.current = fetcher.load;

  useEffect(() => {
    if (open)
      loadRef.current(embedUrl(building ? `/authorize-arcadia?building=${building}` : "/authorize-arcadia"));
  }, [open, building]);

  useEffect(() => {
    const d = fetcher.data;
    if (!d) return;
    if ("kind" in d) {
      setFlow(d);
      setActionData(undefined);
    } else setActionData(d);
  }, [fetcher.data]);

  const FetcherForm = fetcher.Form;
  const DialogForm = useCallback(
    (props: FormProps & { children?: ReactNode }) => <FetcherForm {...props} />,
    [FetcherForm],
  );
  const nav = useMemo<ConnectFlowNav>(
    () => ({
      Form: DialogForm,
      FlowLink: ({ to, className, children }) => (
        <a
          href={to}
          className={className}
          onClick={(e) => {
            e.preventDefault();
            loadRef.current(embedUrl(to));
          }}
        >
          {children}
        </a>
      ),
    }),
    [DialogForm],
  );

  return (
    <UrlDialog open={open} closeHref={closeHref} title="Connect Utility Accounts" full>
      <div aria-busy={fetcher.state !== "idle"}>
        {/* Every form here submits through the fetcher: its buttons read their pending state from it. */}
        <SubmissionSource.Provider value={fetcher}>
          {flow ? (
            <ConnectFlow data={flow} actionData={actionData} headingLevel={2} nav={nav} />
          ) : (
            <p>Loading…</p>
          )}
        </SubmissionSource.Provider>
      </div>
    </UrlDialog>
  );
}
