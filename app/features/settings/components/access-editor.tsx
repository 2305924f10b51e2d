import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { Alert } from "~/ui/states";
import { SubmissionIdInput } from "~/ui/submission-id";
import { ACCESS_MAYBE_APPLIED, accessChanges, type AccessActionData, type TeamMemberView } from "../settings";
import { SubmitButton } from "~/ui/pending";

/** The action's answer when it is the access editor's (a refused form answers a Conform reply instead). */
const isAccessReply = (v: unknown): v is AccessActionData =>
  typeof v === "object" && v !== null && "userId" in v && "chosen" in v;

/** A member's location access: the choice the action answered (Select all / Revoke all, a failed save) or theirs. */
export function AccessEditor({
  member,
  hydrated,
  submissionId,
}: {
  member: TeamMemberView;
  hydrated: boolean;
  submissionId: string;
}) {
  const actionData = useActionData();
  const navigation = useNavigation();
  const fromAction = isAccessReply(actionData) && actionData.userId === member.id ? actionData : null;
  const initial = fromAction
    ? fromAction.chosen
    : member.buildings.filter((b) => b.hasAccess).map((b) => b.id);
  return (
    <AccessForm
      key={JSON.stringify(initial)}
      member={member}
      initial={initial}
      failed={fromAction?.failed}
      message={fromAction?.message}
      maybeApplied={fromAction?.maybeApplied}
      hydrated={hydrated}
      busy={navigation.state !== "idle"}
      submissionId={submissionId}
    />
  );
}

function AccessForm({
  member,
  initial,
  failed,
  message,
  maybeApplied,
  hydrated,
  busy,
  submissionId,
}: {
  member: TeamMemberView;
  initial: number[];
  failed?: string[];
  message?: string;
  maybeApplied?: boolean;
  hydrated: boolean;
  busy: boolean;
  submissionId: string;
}) {
  const [chosen, setChosen] = useState<Set<number>>(new Set(initial));
  const all = member.buildings.map((b) => b.id);
  const changed = accessChanges(
    member.buildings.map((b) => ({ buildingId: b.id, hasAccess: b.hasAccess })),
    chosen,
  ).length;
  return (
    <Form
      method="post"
      action={`/settings?tab=team&edit=${member.id}`}
      className="stack"
      data-testid="access-editor"
    >
      <input type="hidden" name="userId" value={member.id} />
      <SubmissionIdInput value={submissionId} />
      {failed?.length ? (
        <Alert tone="error" title="Some changes were not saved.">
          Access could not be saved for: {failed.join(", ")}. Your choices are kept below; save again to
          retry.
          {maybeApplied ? (
            <>
              <br />
              {ACCESS_MAYBE_APPLIED}
            </>
          ) : null}
        </Alert>
      ) : null}
      {message ? <Alert tone="error">{message}</Alert> : null}
      <div className="row">
        {hydrated ? (
          <>
            <button
              type="button"
              className="btn btn-secondary btn-small"
              onClick={() => setChosen(new Set(all))}
            >
              Select all
            </button>
            <button
              type="button"
              className="btn btn-secondary btn-small"
              onClick={() => setChosen(new Set())}
            >
              Revoke all
            </button>
          </>
        ) : (
          <>
            <SubmitButton
              name="intent"
              value="access-select-all"
              className="btn btn-secondary btn-small"
              formNoValidate
            >
              Select all
            </SubmitButton>
            <SubmitButton
              name="intent"
              value="access-revoke-all"
              className="btn btn-secondary btn-small"
              formNoValidate
            >
              Revoke all
            </SubmitButton>
          </>
        )}
        <span className="muted" aria-live="polite">
          {chosen.size} of {all.length} selected
        </span>
      </div>
      <fieldset>
        <legend className="visually-hidden">Locations {member.name} can access</legend>
        <ul className="access-grid">
          {member.buildings.map((b) => (
            <li key={b.id}>
              <label className="checkbox" htmlFor={`access-${b.id}`}>
                <input
                  type="checkbox"
                  id={`access-${b.id}`}
                  name="building"
                  value={b.id}
                  checked={chosen.has(b.id)}
                  onChange={(e) =>
                    setChosen((s) => {
                      const next = new Set(s);
                      if (e.target.checked) next.add(b.id);
                      else next.delete(b.id);
                      return next;
                    })
                  }
                />
                <span>{b.name}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="row">
        <SubmitButton
          name="intent"
          value="access-save"
          className="btn"
          disabled={hydrated && (busy || changed === 0)}
        >
          Save
        </SubmitButton>
      </div>
    </Form>
  );
}
