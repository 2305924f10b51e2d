/** A row of the outbox table (migrations 001, 070 and 071): one email, written before it is sent. */
export type OutboxRow = {
  id: number;
  to_email: string;
  subject: string;
  text: string;
  html: string | null;
  headers_json: string;
  kind: string;
  links_json: string;
  code: string | null;
  sent_at: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  delivered_at: string | null;
  message_id: string | null;
  claim_id: string | null;
};
