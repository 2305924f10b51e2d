import { useFetcher } from "@remix-run/react";
import { STATUS_LABELS } from "../../../../shared/status-labels";
import { startTransition, useEffect, useRef, useState } from "react";
import {
  borderColour,
  brandOf,
  cardAnchor,
  cardStatus,
  describeChange,
  issueActions,
  issueLabel,
  modelOf,
  modeDisplayName,
  RECEIPT_STATUS,
  receiptFollowUp,
  settingsRefusal,
  settingsWarning,
  STATUS_EXPLANATIONS,
  timesFormatter,
  vendorLabel,
  type CardTimes,
  type ThermostatInfo,
} from "../thermostats";
import { Alert } from "~/ui/states";
import { loadLiveSettingsForm, SettingsForm, type SettingsReply } from "./settings-form";
import { SubmitButton } from "~/ui/pending";

const degrees = (v: number | null) => (v === null ? "—" : `${v}°F`);

/**
 * A device card: the front (name, brand, temperature, mode, setpoints, status, receipt of the latest change,
 * the setting form) and the back in a <details> (works with the keyboard and without JavaScript).
 */
export function ThermostatCard({
  item,
  tab,
  showVendor,
  openBack,
  serverReply,
  submissionId,
  now,
  times,
}: {
  item: ThermostatInfo;
  /** The web's clock when the page was loaded (ms). */
  now: number;
  /** The instants the card writes out, written by the server (`cardTimesOf`). */
  times: CardTimes;
  tab: string;
  showVendor: boolean;
  openBack: boolean;
  serverReply?: SettingsReply;
  submissionId: string;
}) {
  const { thermostat, state } = item;
  const status = cardStatus(item);
  const colour = borderColour(item);
  const brand = brandOf(thermostat);
  const { issue, canResolve, canDismiss } = issueActions(item);
  const action = item.thermostatAction;
  const offline = status === "unlinked" || status === "unreachable";
  const refusal = settingsRefusal(item);
  const warning = settingsWarning(item);
  const formatTime = timesFormatter(times);
  const followUp = receiptFollowUp(item, now, formatTime.local);
  const headingId = `thermostat-${thermostat.id}-name`;
  const issueFetcher = useFetcher({ key: `issue-${thermostat.id}` });
  // The setting form runs Conform only once its disclosure is opened (or to show a reply): see SettingsForm.
  // The live form is a chunk of its own: fetched as a pointer or the focus reaches "Change settings", and the
  // switch is a transition, so the closed form stays in place until the live one can replace it at once.
  const [settingsOpened, setSettingsOpened] = useState(false);
  const openSettings = () => startTransition(() => setSettingsOpened(true));
  const preloadSettings = () => void loadLiveSettingsForm();
  const settingsRef = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    // Opened before the page hydrated (the toggle event came before React listened).
    if (settingsRef.current?.open) openSettings();
  }, []);
  const formKey = `${thermostat.id}-${action?.id ?? 0}-${action?.status ?? "none"}-${state.mode}-${state.coolSetpointF}-${state.heatSetpointF}`;

  return (
    <article
      className={`card thermo-card thermo-border-${colour}`}
      aria-labelledby={headingId}
      id={cardAnchor(thermostat.id)}
      tabIndex={-1}
      data-testid={`thermostat-${thermostat.id}`}
      data-border={colour}
    >
      <div className="thermo-head">
        <div>
          <h2 id={headingId} className="thermo-name">
            {thermostat.deviceName}
          </h2>
          {brand ? <p className="muted thermo-brand">{brand}</p> : null}
        </div>
        <span className={`thermo-status thermo-status-${colour}`} data-testid="card-status">
          {STATUS_LABELS[status]}
        </span>
      </div>
      <dl className="thermo-stats">
        <div>
          <dt>Indoor</dt>
          <dd>{degrees(state.tempIndoorF)}</dd>
        </div>
        <div>
          <dt>Mode</dt>
          <dd data-testid="card-mode">{modeDisplayName(state.mode)}</dd>
        </div>
        <div>
          <dt>Cool to</dt>
          <dd data-testid="card-cool">{degrees(state.coolSetpointF)}</dd>
        </div>
        <div>
          <dt>Heat to</dt>
          <dd data-testid="card-heat">{degrees(state.heatSetpointF)}</dd>
        </div>
      </dl>
      {offline ? (
        <div className="thermo-offline">
          <p>{STATUS_EXPLANATIONS[status]}</p>
          <p className="muted">Last seen: {formatTime.lastSeen(state.lastSeen) ?? "never"}</p>
        </div>
      ) : null}
      {action ? (
        <p className={`thermo-receipt thermo-receipt-${action.status}`} data-testid="receipt">
          <span className="muted">Latest change{action.dispatchId ? " (grid event)" : ""}:</span>{" "}
          {describeChange(action.deviceSpecificData)},{" "}
          <span className="muted">sent {formatTime.local(action.createdAt)}</span> ·{" "}
          <strong>{RECEIPT_STATUS[action.status]}</strong>
          {action.status === "fail" && action.reason ? (
            <span className="thermo-reason"> ({action.reason})</span>
          ) : null}
        </p>
      ) : null}
      {followUp ? (
        <p className="thermo-receipt-followup" data-testid="receipt-followup">
          {followUp}
        </p>
      ) : null}

      <details className="thermo-back" open={openBack || undefined}>
        <summary>Status details</summary>
        <div className="thermo-back-body" data-testid="card-back">
          <p>{STATUS_EXPLANATIONS[status]}</p>
          {issue ? (
            <p className="muted">
              Issue: {issueLabel(issue.issueSlug)} (
              {issue.currentStatus === "processing" ? "resolving issue" : issue.currentStatus})
            </p>
          ) : null}
          {canResolve || canDismiss ? (
            <issueFetcher.Form method="post" className="row">
              <input type="hidden" name="thermostatId" value={thermostat.id} />
              <input type="hidden" name="issueId" value={issue?.id} />
              <input type="hidden" name="tab" value={tab} />
              {canResolve ? (
                <SubmitButton
                  name="intent"
                  value="resolve"
                  pending={
                    issueFetcher.state !== "idle" && issueFetcher.formData?.get("intent") === "resolve"
                  }
                  className="btn btn-small"
                  disabled={issueFetcher.state !== "idle"}
                >
                  Resolve Issue
                </SubmitButton>
              ) : null}{" "}
              {canDismiss ? (
                <SubmitButton
                  name="intent"
                  value="dismiss"
                  pending={
                    issueFetcher.state !== "idle" && issueFetcher.formData?.get("intent") === "dismiss"
                  }
                  className="btn btn-secondary btn-small"
                  disabled={issueFetcher.state !== "idle"}
                >
                  DISMISS
                </SubmitButton>
              ) : null}
            </issueFetcher.Form>
          ) : null}
          {showVendor ? (
            <dl className="thermo-vendor" data-testid="vendor-detail">
              <div>
                <dt>Vendor</dt>
                <dd>{vendorLabel(thermostat.vendor)}</dd>
              </div>
              <div>
                <dt>Device model</dt>
                <dd>{modelOf(thermostat) ?? "Unknown"}</dd>
              </div>
            </dl>
          ) : null}
        </div>
      </details>

      {/* An unlinked device cannot be changed: no form is offered, and the server refuses a Save (a stale or
          forged form) with the reason, shown here. */}
      {refusal ? (
        serverReply ? (
          <div data-testid="settings-refused">
            <Alert tone="error">{refusal}</Alert>
          </div>
        ) : null
      ) : (
        <details
          className="thermo-settings"
          open={serverReply ? true : undefined}
          ref={settingsRef}
          onToggle={(e) => {
            if (e.currentTarget.open) openSettings();
          }}
        >
          {/* The click (or Enter/Space) that opens the disclosure makes the form live before it shows: the
              swap happens while the form is hidden, so nothing typed into it is lost. */}
          <summary
            onClick={openSettings}
            onPointerEnter={preloadSettings}
            onTouchStart={preloadSettings}
            onFocus={preloadSettings}
          >
            Change settings
          </summary>
          {warning ? (
            <div data-testid="settings-warning">
              <Alert tone="warning">{warning}</Alert>
            </div>
          ) : null}
          <SettingsForm
            key={formKey}
            item={item}
            tab={tab}
            serverReply={serverReply}
            submissionId={submissionId}
            live={settingsOpened || Boolean(serverReply)}
          />
        </details>
      )}
    </article>
  );
}
