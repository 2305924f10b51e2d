import type { ApiDeps } from "../lib/http";
import { utilityByProvider } from "../lib/accounts";
import { clientIdOfUser, webhookEvent } from "../lib/arcadia";
import type { ArcadiaEventHook, CredentialRow } from "../domain/arcadia-events";
import { absolute, renderEmail, type EmailDoc, type RenderedEmail } from "./layout";
import { sendMail } from "./mailer";

/** A credential verdict the person did not see in Connect (rule connect-verdict-email). */
export type ConnectVerdict = "verified" | "rejected" | "timed_out";

/**
 * The email for a Connect login whose verdict came later by webhook: the words the app shows for the same
 * verdict (the accounts page's "The credentials used were invalid. Please reconnect.", the step's time-out
 * message), and a link that opens what it reports: the accounts page, where the login reads Connected, or
 * Invalid Credentials under its Reconnect Required banner.
 */
export function connectVerdictEmail(d: {
  baseUrl: string;
  firstName: string;
  utility: string;
  verdict: ConnectVerdict;
}): EmailDoc {
  const accounts = absolute(d.baseUrl, "/accounts");
  if (d.verdict === "verified")
    return {
      subject: `Your ${d.utility} login is connected`,
      preview: `We can now read your ${d.utility} bills.`,
      heading: `${d.utility} is connected`,
      baseUrl: d.baseUrl,
      preferencesLink: false,
      blocks: [
        { type: "p", text: `Hi ${d.firstName},` },
        {
          type: "p",
          text: `Your ${d.utility} login is connected. Its accounts read Connected on the accounts page, and their bills show as the utility issues them.`,
        },
        { type: "button", link: { href: accounts, label: "View connected accounts" } },
      ],
    };
  const message =
    d.verdict === "rejected"
      ? "The credentials used were invalid. Please reconnect."
      : "The connection timed out. Please try again.";
  return {
    subject: `Reconnect your ${d.utility} login`,
    preview: message,
    heading: `Your ${d.utility} login did not connect`,
    baseUrl: d.baseUrl,
    preferencesLink: false,
    blocks: [
      { type: "p", text: `Hi ${d.firstName},` },
      { type: "p", text: `${d.utility}: ${message}` },
      // The accounts page, where the login's Reconnect Required banner has its RECONNECT.
      { type: "button", link: { href: accounts, label: "Reconnect on the accounts page" } },
    ],
  };
}

/** The provider's events that are a credential's verdict, and what each is (rule connect-verdict-email). */
const VERDICTS: Record<string, ConnectVerdict> = {
  utility_credential_verified: "verified",
  utility_credential_rejected: "rejected",
  utility_credential_timed_out: "timed_out",
};

type SessionPerson = { id: string; connect_status: string | null; email: string; first_name: string };

/**
 * The Connect session a credential's event belongs to: the newest of that client for that utility, opened for
 * this credential (update mode) or for a new one, before the event (null when none: a seeded login).
 */
function sessionOf(
  deps: ApiDeps,
  clientId: number,
  utilityId: number,
  credentialId: number,
  providerCredentialId: string,
  at: string,
) {
  // The session whose page reported this credential (the page may have minted newer ones since), else the
  // newest of that client for that utility before the event.
  const reported = deps.db
    .prepare(
      `SELECT s.id, s.connect_status, u.email, u.first_name FROM arcadia_connect_sessions s
         JOIN users u ON u.id = s.user_id
       WHERE s.client_id = ? AND s.provider_credential_id = ? ORDER BY s.created_at DESC LIMIT 1`,
    )
    .get(clientId, providerCredentialId) as SessionPerson | undefined;
  if (reported) return reported;
  return (
    (deps.db
      .prepare(
        `SELECT s.id, s.connect_status, u.email, u.first_name FROM arcadia_connect_sessions s
           JOIN users u ON u.id = s.user_id
         WHERE s.client_id = ? AND s.utility_id = ? AND (s.credential_id IS NULL OR s.credential_id = ?)
           AND s.created_at <= ?
         ORDER BY s.created_at DESC LIMIT 1`,
      )
      .get(clientId, utilityId, credentialId, at) as SessionPerson | undefined) ?? null
  );
}

/**
 * The verdict email an event may need, rendered before the event is applied (rendering is asynchronous; the
 * email is written in the event's transaction, or not at all): for a verdict event, the session's person.
 */
async function verdictMailFor(deps: ApiDeps, raw: string): Promise<VerdictMail | null> {
  let event;
  try {
    event = webhookEvent.parse(JSON.parse(raw));
  } catch {
    return null;
  }
  const verdict = VERDICTS[event.type];
  const providerCredential = event.data.utility_credential_id;
  if (!verdict || !providerCredential) return null;
  const cred = deps.db
    .prepare("SELECT * FROM utility_credentials WHERE arcadia_credential_id = ?")
    .get(providerCredential) as CredentialRow | undefined;
  const clientId =
    cred?.client_id ?? (event.data.client_user_id ? clientIdOfUser(event.data.client_user_id) : null);
  const utilityId = cred?.utility_id ?? utilityByProvider(deps, event.data.utility_id ?? "")?.id;
  const utility = utilityId
    ? (deps.db.prepare("SELECT id, name FROM utilities WHERE id = ?").get(utilityId) as
        { id: number; name: string } | undefined)
    : undefined;
  if (clientId === null || !utility) return null;
  const person = sessionOf(deps, clientId, utility.id, cred?.id ?? -1, providerCredential, event.created_at);
  if (!person) return null;
  const mail = await renderEmail(
    connectVerdictEmail({
      baseUrl: deps.config.webBaseUrl,
      firstName: person.first_name,
      utility: utility.name,
      verdict,
    }),
  );
  return { to: person.email, sessionId: person.id, providerCredentialId: providerCredential, mail };
}

type VerdictMail = { to: string; sessionId: string; providerCredentialId: string; mail: RenderedEmail };

/**
 * Rule connect-verdict-email: a credential's first verdict (verified, rejected, timed out) that arrives by webhook
 * is emailed to the person of the Connect session that made the login, in the event's transaction, unless
 * Connect showed that verdict on the page (the session's connect_status; `pending` showed none).
 */
export function connectVerdictHook(deps: ApiDeps): ArcadiaEventHook<VerdictMail> {
  return {
    prepare: (raw) => verdictMailFor(deps, raw),
    write: (prepared, result) => {
      if (result.outcome !== "applied" || !result.first) return;
      // Read again in the transaction: the page may have reported how Connect ended since it was prepared.
      const shown = deps.db
        .prepare(
          `SELECT 1 FROM arcadia_connect_sessions WHERE (id = ? OR provider_credential_id = ?)
             AND connect_status IS NOT NULL AND connect_status != 'pending'`,
        )
        .get(prepared.sessionId, prepared.providerCredentialId);
      if (shown) return;
      sendMail(deps, { to: prepared.to, ...prepared.mail, kind: "connect_verdict" });
    },
  };
}
