import type { Submission } from "@conform-to/react";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { anonymiseUser } from "~/server/upstream/demo-mode";
import type { ApiClient } from "~/server/upstream/api-client.server";
import { apiUserSchema, toSessionUser, type ApiUser } from "~/features/auth/sign-in.server";
import { isApiError, settle } from "~/server/upstream/api-error";
import { loginRedirectUrl, safeRedirect } from "~/server/safe-redirect";
import {
  commitSession,
  destroySession,
  getSession,
  newSession,
  type SessionUser,
  type Toast,
} from "~/server/upstream/session.server";
import { parseId } from "~/lib/ids";
import { getApi, withPrimaryStatus } from "~/server/upstream/upstream.server";
import { invalidSubmission, parseForm } from "~/server/forms.server";
import { requireStaff } from "~/server/upstream/guards.server";
import { setDemoMode } from "~/features/demo-mode/demo-mode.server";

export const CLIENTS_PAGE_SIZE = 20;

const clientSchema = z.object({
  id: z.number(),
  name: z.string(),
  clientType: z.enum(["SMB", "RESI", "LARGE_COMMERCIAL"]),
});
const clientsPage = z.object({
  items: z.array(clientSchema),
  total: z.number(),
  page: z.number(),
  size: z.number(),
});
export type ClientRow = z.infer<typeof clientSchema>;

export const searchClients = (api: ApiClient, search: string, page: number) =>
  api.get("/clients", { query: { search, page, size: CLIENTS_PAGE_SIZE }, schema: clientsPage });

/** Starts impersonating: the user as the api answers it, and the new upstream session token it issued. */
export const startImpersonation = (api: ApiClient, clientId: number, reason: string) =>
  api.withSessionCookie("POST", "/impersonation", { body: { clientId, reason }, schema: apiUserSchema });

export const stopImpersonation = (api: ApiClient) =>
  api.withSessionCookie("DELETE", "/impersonation", { schema: apiUserSchema });

/**
 * After a 401 (the cookie's upstream session was revoked, e.g. a form resubmitted after a rotation): the
 * login page, the session cleared, as every other upstream call does (getApi's onUnauthorized).
 */
export async function signInAgain(request: Request) {
  const cookie = await destroySession(await getSession(request));
  return redirect(loginRedirectUrl(request.url), { headers: { "Set-Cookie": cookie } });
}

/**
 * A privilege change (impersonation start or stop): a brand-new web session holding the fresh user and the
 * upstream's new session token (the api revoked the old one), so no cookie from before keeps working. An
 * upstream that does not rotate keeps its token. Per-area scratch state of the old session is dropped.
 * Answers the Set-Cookie header value.
 */
export async function rotatedSessionCookie(
  request: Request,
  answer: { data: ApiUser; apiSession: string | undefined },
  toast?: Toast,
) {
  const old = await getSession(request);
  const apiSession = answer.apiSession ?? old.get("apiSession");
  const session = await newSession();
  session.set("user", anonymiseUser(toSessionUser(answer.data)));
  if (apiSession) session.set("apiSession", apiSession);
  if (toast) session.flash("toast", toast);
  return commitSession(session);
}

/**
 * Re-reads the user (GET /user) and writes it into the cookie session, the client name anonymised while demo
 * mode is on. Answers the Set-Cookie header value, with an optional flash toast.
 */
export async function refreshSessionUser(request: Request, api: ApiClient, toast?: Toast) {
  const fresh = toSessionUser(await api.get("/user", { schema: apiUserSchema }));
  const session = await getSession(request);
  session.set("user", anonymiseUser(fresh));
  if (toast) session.flash("toast", toast);
  return commitSession(session);
}

const REASON_REQUIRED = "Please give a reason (at least 3 characters)";

/** The impersonation form: a client and a reason (the api records both in its audit log). */
export const impersonationSchema = z.object({
  clientId: z.coerce
    .number({ invalid_type_error: "Choose a client" })
    .int("Choose a client")
    .positive("Choose a client")
    .max(Number.MAX_SAFE_INTEGER, "Choose a client"),
  reason: z
    .string({ required_error: REASON_REQUIRED })
    .trim()
    .min(3, REASON_REQUIRED)
    .max(500, "Keep the reason under 500 characters"),
});

/**
 * The impersonate page's one action schema: Start impersonating (the form above), Stop, and demo mode on or
 * off (also posted by the shell's banner, with the page to go back to).
 */
export const impersonateActionSchema = z.discriminatedUnion("intent", [
  // `redirectTo`: where to land once impersonating (the investigation queue's bill flag), for an SMB client.
  impersonationSchema.extend({ intent: z.literal("start"), redirectTo: z.string().optional() }),
  z.object({ intent: z.literal("stop") }),
  z.object({ intent: z.literal("demo-on"), redirectTo: z.string().optional() }),
  z.object({ intent: z.literal("demo-off"), redirectTo: z.string().optional() }),
]);

/** The impersonate page's view model: the client search, its page, the client to preselect, the session. */
export async function impersonateView(api: ApiClient, user: SessionUser, url: URL) {
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const page = Math.min(10_000, parseId(url.searchParams.get("page")) ?? 1);
  const clients = await settle(searchClients(api, q, page));
  return {
    clients,
    view: {
      q,
      page,
      clients: clients.ok ? clients.data : null,
      pages: clients.ok ? Math.max(1, Math.ceil(clients.data.total / CLIENTS_PAGE_SIZE)) : 1,
      selected: parseId(url.searchParams.get("client")),
      impersonating: user.isImpersonating ? { name: user.client?.name ?? "", demo: user.isDemoMode } : null,
    },
  };
}

/**
 * Start impersonating: a new session cookie and the client's home, or the page the form names (only SMB clients
 * have the main application; for the others staff stay on /impersonate, with the banner). A refusal is the form's reply:
 * an unknown client on the client list, a refused reason on the reason, anything else above the form.
 */
export async function startImpersonating(
  request: Request,
  api: ApiClient,
  submission: Submission<z.infer<typeof impersonateActionSchema>>,
  value: { clientId: number; reason: string; redirectTo?: string },
) {
  try {
    const answer = await startImpersonation(api, value.clientId, value.reason);
    const user = answer.data;
    const cookie = await rotatedSessionCookie(request, answer, {
      kind: "success",
      message: `You are now impersonating ${user.client?.name ?? "the client"}`,
    });
    const home =
      user.client?.clientType === "SMB" ? safeRedirect(value.redirectTo, "/locations") : "/impersonate";
    return redirect(home, {
      headers: { "Set-Cookie": cookie },
    });
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (error.status === 401) throw await signInAgain(request);
    const reply =
      error.status === 404
        ? submission.reply({ fieldErrors: { clientId: ["Choose a client"] } })
        : error.fieldErrors.reason
          ? submission.reply({ fieldErrors: { reason: [error.fieldErrors.reason[0]] } })
          : submission.reply({ formErrors: [error.message] });
    return data({ lastResult: reply }, { status: error.status === 404 ? 400 : error.status });
  }
}

export async function impersonateLoader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request);
  const api = await getApi(request, context);
  const { view, clients } = await impersonateView(api, user, new URL(request.url));
  return withPrimaryStatus(view, clients);
}

export async function impersonateAction({ request, context }: ActionFunctionArgs) {
  await requireStaff(request);
  // One schema: an unknown intent, an unknown client id or a missing reason fails here (a 400 and the reply).
  const submission = parseForm(await request.formData(), { schema: impersonateActionSchema });
  if (submission.status !== "success") return invalidSubmission(submission);
  const value = submission.value;
  const api = await getApi(request, context);
  if (value.intent === "start") return startImpersonating(request, api, submission, value);
  if (value.intent === "stop") {
    const stopped = await settle(stopImpersonation(api));
    if (!stopped.ok) throw stopped.error.status === 401 ? await signInAgain(request) : stopped.error;
    const cookie = await rotatedSessionCookie(request, stopped.data, {
      kind: "success",
      message: "You stopped impersonating.",
    });
    return redirect("/impersonate", { headers: { "Set-Cookie": cookie } });
  }
  const result = await settle(setDemoMode(api, value.intent === "demo-on"));
  if (!result.ok)
    throw data({ message: result.error.message }, { status: result.error.status === 403 ? 403 : 502 });
  const cookie = await refreshSessionUser(request, api);
  return redirect(safeRedirect(value.redirectTo, "/"), { headers: { "Set-Cookie": cookie } });
}
