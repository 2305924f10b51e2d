import { pageOf } from "~/lib/paging";
import { z } from "zod";
import { isConnectionPending } from "./account-status";

/** Pure rules of the connect flow (rules connect-steps, coned-account-list and mfa-checkbox, docs/rules.md). */

export type UtilityOption = {
  id: number;
  name: string;
  arcadiaProviderId: string;
  requiresEbill: boolean;
  isConed: boolean;
  isJcpl: boolean;
  mfaExempt: boolean;
};

export const CONNECT_MESSAGES = {
  utilitiesFailed: "An error has occurred, please try again.",
  successTitle: "Connection(s) Initiated",
  connectAnother: "Connect another utility account",
  conedCheckbox: "I have ensured all accounts listed above have an associated contact email.",
  conedEmailNotice:
    "After you submit, an email arrives at the address associated with each account within 2-3 minutes. Approve it to share the account's data.",
  jcplNotice: "E-bill must be enabled on this account before it can be connected.",
  ebillHelper: "This utility requires e-bill to be enabled on the account.",
  twelveMonths: "We read up to 12 months of bills from your utility account.",
  mfaCheckbox:
    "I understand that if my utility login uses multi-factor authentication (MFA), I may need to approve a code or refresh the connection later.",
  required: "Required",
  selectUtility: "Please select a utility",
  noAccounts: "Add at least one account number",
  badAccountNumber: "Enter a valid account number (4 to 40 letters, digits, spaces or dashes)",
  duplicateAccount: "This account number is already in the list",
  allAlreadySubmitted: (support: string) =>
    `All listed accounts have already been submitted.  Please contact ${support} for more information`,
  noAccountsConnected: "There are no accounts connected.",
  // The provider's Connect: the spec names the step only; these words are ours.
  providerIntro: (utility: string) =>
    `Connect opens the utility-data provider's secure form, where you sign in with your ${utility} login.`,
  providerUpdateIntro: (utility: string) =>
    `Connect opens the utility-data provider's secure form, where you update your ${utility} login.`,
  providerFailed: "An error has occurred, please try again.",
  providerRejected: "The credentials used were invalid. Please reconnect.",
  /**
   * After Success, what happens next (rule connect-what-next): the spec has no words for it (docs/rules.md,
   * deviations); these are ours.
   */
  whatNext:
    "Bills usually arrive within a few days of connecting: the utility's first statement shows on the location's Bill History page, and an email follows if the connection needs your attention.",
  providerTimedOut: "The connection timed out. Please try again.",
  /** The hosted page closed with its Cancel (no JavaScript): our words, as the rest of Connect's. */
  providerCancelled: "Connect was closed before a login was submitted: nothing was connected.",
  /** The hosted page's way back, taken a second time (rule connect-url-session): our words. */
  connectLinkUsed:
    "This Connect link has already been used. What it connected shows on the accounts page; to connect another login, use Connect again.",
  /** The api refused the address the provider's hosted page would send the person back to (rule connect-return-address). */
  returnAddressRefused: (origin: string) =>
    `Connect cannot send you back to ${origin}: this server is set up for another address (PUBLIC_URL). Open the app at that address and connect again.`,
} as const;

// ---- utility filter -----------------------------------------------------------------------------------

export const UTILITY_SEARCH_MIN = 3;

/**
 * The utility select filters only after 3 typed characters. Fewer: every utility stays listed with a hint
 * ('Start typing', 'Type at least 3 characters'); 3 or more: the matches, or 'No utilities found'.
 * The selected utility stays listed so a filter never drops the user's choice.
 */
export function filterUtilities<U extends { name: string; arcadiaProviderId: string }>(
  utilities: U[],
  query: string | null | undefined,
  selected?: string | null,
): { items: U[]; message: string | null } {
  const q = (query ?? "").trim().toLowerCase();
  if (q.length === 0) return { items: utilities, message: "Start typing" };
  if (q.length < UTILITY_SEARCH_MIN) return { items: utilities, message: "Type at least 3 characters" };
  const words = q.split(/\s+/);
  const items = utilities.filter(
    (u) => u.arcadiaProviderId === selected || words.every((w) => u.name.toLowerCase().includes(w)),
  );
  const matches = items.filter((u) => words.every((w) => u.name.toLowerCase().includes(w)));
  return { items, message: matches.length === 0 ? "No utilities found" : null };
}

/**
 * The one utility a search finds, when it finds exactly one (3 characters or more): the connect flow selects it,
 * so a search that leaves one choice needs no second act (with JavaScript as the user types; without it, the
 * searched page renders it selected, and Continue uses it).
 */
export function soleUtilityMatch<U extends { name: string }>(
  utilities: U[],
  query: string | null | undefined,
) {
  const q = (query ?? "").trim().toLowerCase();
  if (q.length < UTILITY_SEARCH_MIN) return null;
  const words = q.split(/\s+/);
  const matches = utilities.filter((u) => words.every((w) => u.name.toLowerCase().includes(w)));
  return matches.length === 1 ? matches[0] : null;
}

/** The search's status line (polite live region): how many utilities it found, and the one it selected. */
export function utilityFilterStatus(
  found: { items: unknown[]; message: string | null },
  selectedByMatch: { name: string } | null,
) {
  if (found.message) return found.message;
  if (selectedByMatch) return `1 utility found, ${selectedByMatch.name} selected`;
  return `${found.items.length} ${found.items.length === 1 ? "utility" : "utilities"} found`;
}

// ---- wizard steps -------------------------------------------------------------------------------------

export const CONNECT_STEPS = [
  "select_utility",
  "review_accounts",
  "enter_coned_credentials",
  "connect_arcadia",
  "success",
] as const;
export type ConnectStep = (typeof CONNECT_STEPS)[number];

export const isConnectStep = (s: unknown): s is ConnectStep =>
  typeof s === "string" && (CONNECT_STEPS as readonly string[]).includes(s);

/** The sequence for a utility: ConEd-type utilities pass through the account-numbers step instead of review. */
export function connectSequence(isConed: boolean): ConnectStep[] {
  return isConed
    ? ["select_utility", "enter_coned_credentials", "connect_arcadia", "success"]
    : ["select_utility", "review_accounts", "connect_arcadia", "success"];
}

export function connectStepTitle(step: ConnectStep, isConed: boolean): string {
  switch (step) {
    case "select_utility":
      return "Select Utility";
    case "review_accounts":
      return "Review accounts";
    case "enter_coned_credentials":
      return "Enter Credentials";
    case "connect_arcadia":
      return isConed ? "Review accounts" : "Enter Credentials";
    case "success":
      return CONNECT_MESSAGES.successTitle;
  }
}

/** The step after `step` for this kind of utility (success stays success). */
export function nextConnectStep(step: ConnectStep, isConed: boolean): ConnectStep {
  const seq = connectSequence(isConed);
  const at = seq.indexOf(
    step === "review_accounts" && isConed
      ? "enter_coned_credentials"
      : step === "enter_coned_credentials" && !isConed
        ? "review_accounts"
        : step,
  );
  return seq[Math.min(at + 1, seq.length - 1)];
}

export type ConnectState = {
  /** The utility from the URL, when it names a known one. */
  utility: { isConed: boolean } | null;
  /** ConEd account numbers carried so far. */
  accounts: string[];
  /** The ConEd contact-email checkbox was ticked. */
  confirmed: boolean;
  /** A success receipt is in the session. */
  hasReceipt: boolean;
};

/**
 * The step to render for a requested one: a step whose prerequisites are missing falls back to the furthest
 * step that is reachable (no utility: select; ConEd without accounts or confirmation: account numbers).
 */
export function resolveConnectStep(requested: string | null | undefined, s: ConnectState): ConnectStep {
  if (requested === "success")
    return s.hasReceipt
      ? "success"
      : s.utility
        ? s.utility.isConed
          ? "enter_coned_credentials"
          : "review_accounts"
        : "select_utility";
  if (!s.utility || !isConnectStep(requested) || requested === "select_utility") return "select_utility";
  const { isConed } = s.utility;
  if (isConed) {
    if (requested === "review_accounts" || requested === "enter_coned_credentials")
      return "enter_coned_credentials";
    return s.accounts.length > 0 && s.confirmed ? "connect_arcadia" : "enter_coned_credentials";
  }
  if (requested === "enter_coned_credentials") return "review_accounts";
  return requested;
}

// ---- ConEd account-number list ------------------------------------------------------------------------

const ACCOUNT_NUMBER = /^[A-Za-z0-9][A-Za-z0-9 -]{2,38}[A-Za-z0-9]$/;

export const normalizeAccountNumber = (n: string) => n.trim().replace(/\s+/g, " ");
export const isValidAccountNumber = (n: string) => ACCOUNT_NUMBER.test(normalizeAccountNumber(n));

export type AccountListOp = { op: "add"; value: string } | { op: "remove"; index: number } | { op: "none" };

/** At most this many account numbers travel in one list. */
export const MAX_ACCOUNTS = 50;

/**
 * The account list a URL or a form carries (the repeated `account` parameter): each number normalised,
 * blanks dropped, at most MAX_ACCOUNTS. Numbers are not validated here: conedStepErrors says what is wrong.
 */
export function readAccountList(values: readonly unknown[]): string[] {
  return values
    .map((v) => normalizeAccountNumber(v == null ? "" : String(v)))
    .filter(Boolean)
    .slice(0, MAX_ACCOUNTS);
}

/**
 * "Continue" with a number still in the add box counts it as added: the list with it, or, when it cannot be
 * added (invalid, duplicate, list full), the list unchanged and the error for the add box.
 */
export function addPendingAccount(
  accounts: string[],
  pendingRaw: string | null | undefined,
): { accounts: string[]; pending: string; error: string | null } {
  const pending = (pendingRaw ?? "").trim();
  if (!pending) return { accounts, pending, error: null };
  const added = applyAccountListOp(accounts, { op: "add", value: pending });
  return added.error
    ? { accounts, pending, error: added.error }
    : { accounts: added.accounts, pending, error: null };
}

/** Parses the list-editing button (`add`, `remove-<i>`) of the account-numbers form. */
export function parseAccountListOp(
  op: string | null | undefined,
  value: string | null | undefined,
): AccountListOp {
  if (op === "add") return { op: "add", value: value ?? "" };
  const m = /^remove-(\d{1,3})$/.exec(op ?? "");
  if (m) return { op: "remove", index: Number(m[1]) };
  return { op: "none" };
}

/** Applies an add or remove to the account list; an invalid or duplicate number leaves it unchanged with an error. */
export function applyAccountListOp(
  list: string[],
  op: AccountListOp,
): { accounts: string[]; error: string | null } {
  const accounts = list.map(normalizeAccountNumber).filter(Boolean);
  if (op.op === "add") {
    const n = normalizeAccountNumber(op.value);
    if (!isValidAccountNumber(n)) return { accounts, error: CONNECT_MESSAGES.badAccountNumber };
    if (accounts.includes(n)) return { accounts, error: CONNECT_MESSAGES.duplicateAccount };
    if (accounts.length >= MAX_ACCOUNTS) return { accounts, error: "At most 50 account numbers at once" };
    return { accounts: [...accounts, n], error: null };
  }
  if (op.op === "remove") return { accounts: accounts.filter((_, i) => i !== op.index), error: null };
  return { accounts, error: null };
}

/** The ConEd step can continue with at least one valid number and the checkbox ticked. */
export function conedStepErrors(accounts: string[], confirmed: boolean) {
  const errors: { accounts?: string; confirmed?: string } = {};
  if (accounts.length === 0) errors.accounts = CONNECT_MESSAGES.noAccounts;
  else if (!accounts.every(isValidAccountNumber)) errors.accounts = CONNECT_MESSAGES.badAccountNumber;
  if (!confirmed) errors.confirmed = CONNECT_MESSAGES.required;
  return errors;
}

/** Builds the wizard URL for a step (state lives in the query string; nothing secret goes there). */
export function connectUrl(p: {
  step?: ConnectStep;
  utility?: string | null;
  accounts?: string[];
  confirmed?: boolean;
  building?: number | null;
  credential?: number | null;
}) {
  const q = new URLSearchParams();
  if (p.step && p.step !== "select_utility") q.set("step", p.step);
  if (p.utility) q.set("utility", p.utility);
  for (const a of p.accounts ?? []) q.append("account", a);
  if (p.confirmed) q.set("confirmed", "on");
  if (p.building) q.set("building", String(p.building));
  if (p.credential) q.set("credential", String(p.credential));
  const s = q.toString();
  return `/authorize-arcadia${s ? `?${s}` : ""}`;
}

// ---- credentials (built-in connect form) --------------------------------------------------------------

/** Username and password for the provider; the MFA checkbox is required unless the provider is exempt. */
export function credentialsSchema(mfaExempt: boolean) {
  return z.object({
    username: z
      .string({ required_error: CONNECT_MESSAGES.required })
      .trim()
      .min(1, CONNECT_MESSAGES.required)
      .max(200),
    password: z
      .string({ required_error: CONNECT_MESSAGES.required })
      .min(1, CONNECT_MESSAGES.required)
      .max(200),
    mfaAcknowledged: mfaExempt
      ? z.literal("on").optional()
      : z.literal("on", { errorMap: () => ({ message: CONNECT_MESSAGES.required }) }),
  });
}

// ---- onboarding task codes ----------------------------------------------------------------------------

/** Task step codes (rule onboarding-task-codes, docs/rules.md); only 1 and 2 are sent, and only for non-staff users. */
export const TASK_STEP = {
  notStarted: 0,
  pageVisited: 1,
  submitted: 2,
  moreCredentials: 3,
  credentialFailed: 4,
  success: 5,
} as const;
export const shouldSendTaskStep = (user: { isStaff: boolean }, code: number) =>
  !user.isStaff && (code === TASK_STEP.pageVisited || code === TASK_STEP.submitted);

/**
 * Whether this request opens the connect flow in a way that records the opening (rule connect-open-marks-progress,
 * docs/rules.md): the spec says opening the flow marks Bill Monitoring in progress, however it is opened (its
 * address, an emailed or RECONNECT / REFRESH MFA link, a button). So a GET of the flow records it, as the one
 * exception to "no GET changes anything", kept narrow: only a client's own user (never staff, impersonating or
 * not), only the page or its data (a navigation or a fetch: never a prefetch, a HEAD, or a subresource such as an
 * image another page embeds), and the write itself only moves not_started to in_progress (billMonitoringUpdate).
 */
export function recordsFlowOpening(
  request: { method: string; headers: Pick<Headers, "get"> },
  user: { isStaff: boolean; clientId: number | null },
): boolean {
  if (request.method !== "GET" || user.isStaff || !user.clientId) return false;
  const h = request.headers;
  const purpose = `${h.get("sec-purpose") ?? ""} ${h.get("purpose") ?? ""} ${h.get("x-moz") ?? ""}`;
  if (/prefetch|prerender/i.test(purpose)) return false;
  const dest = h.get("sec-fetch-dest");
  return dest === null || ["document", "iframe", "empty"].includes(dest);
}

/** Reconnect addresses from the provider: links back into this app become relative paths. */
export function reconnectHref(url: string, ownOrigin: string) {
  try {
    const u = new URL(url, ownOrigin);
    if (u.pathname === "/authorize-arcadia") return `${u.pathname}${u.search}`;
    if (u.origin === new URL(ownOrigin).origin) return `${u.pathname}${u.search}`;
    return u.protocol === "https:" || u.protocol === "http:" ? u.toString() : "/authorize-arcadia";
  } catch {
    return "/authorize-arcadia";
  }
}

/* ---------- the accounts page, paged by building (rule accounts-page-paged, docs/rules.md) ---------- */

/** Buildings (each a section of accounts) on one page of the accounts page: the spec's list page size. */
export const ACCOUNTS_PAGE_SIZE = 75;

type AccountLike = { arcadiaAccountStatus: string; arcadiaAccountStatusDetail: string | null };

/**
 * One page of the accounts page: 75 buildings a page (`page` clamped to 1..pages); accounts not yet assigned
 * to a building come after the buildings, on the last page. What the page says about all accounts (none yet,
 * some still connecting) counts every account, not only those shown.
 */
export function accountsPage<B extends { accounts: AccountLike[] }, U extends AccountLike>(
  buildings: B[],
  unassigned: U[],
  page: number,
  size = ACCOUNTS_PAGE_SIZE,
) {
  const { rows, page: current, pages } = pageOf(buildings, page, size);
  const all = [...buildings.flatMap((b) => b.accounts), ...unassigned];
  return {
    buildings: rows,
    unassigned: current === pages ? unassigned : [],
    page: current,
    pages,
    buildingCount: buildings.length,
    accountCount: all.length,
    pending: all.some((a) => isConnectionPending(a.arcadiaAccountStatus, a.arcadiaAccountStatusDetail)),
  };
}
