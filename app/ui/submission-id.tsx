/**
 * The hidden field that makes a form submission idempotent (ADR 0010); the server renders a random value. Its
 * schema is `submissionIdField` (app/lib/submission-id.ts): not here, so a page with the field loads no zod.
 */
export const SUBMISSION_ID_FIELD = "submissionId";

export function SubmissionIdInput({ value }: { value: string }) {
  return <input type="hidden" name={SUBMISSION_ID_FIELD} value={value} />;
}
