import { randomBytes } from "node:crypto";
import express, { type Response, Router } from "express";
import * as clock from "../lib/clock";
import { signWebhook } from "../lib/arcadia";
import type { ApiDeps } from "../lib/http";

/**
 * A simulator of the utility-data provider's protocol (Arcadia), served on this api's own port under
 * /arcadia-sim when ARCADIA_API_URL is unset (the demo, the tests): the same token and URL endpoints, a copy of
 * the Connect script (`window._ArcConnect`, which @arcadia-eng/connect-react drives), the hosted Connect page
 * of the no-JavaScript path, and signed webhooks to POST /api/webhooks/arcadia after each submission.
 *
 * The username typed into Connect chooses what happens (docs/testing.md, "Utility provider simulator"):
 * containing `bad` → rejected (invalid credentials); `mfa` → MFA needed; `timeout` → timed out; `error` →
 * Connect fails (no credential, no webhook); anything else → verified, then the utility's first statement
 * STATEMENT_DELAY_MS later on the api's clock (a bill row through the webhook, as the provider's would come).
 * State (tokens, URLs) lives in memory: a restart forgets unexpired tokens, as a provider outage would.
 */

type Subject = { client_user_id?: string; utility_credential_id?: string };
/** A Connect token's or URL's grant; a URL's also what its page shows: the client's name and the utility chosen. */
type ConnectGrant = Subject & { expires: number; redirect?: string; clientName?: string; utility?: string };

const HOUR = 3_600_000;
/** The shortest life of a hosted Connect URL the simulator allows. */
export const MIN_URL_LIFE_MS = 30 * 60_000;
const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

export type SimOutcome = "verified" | "rejected" | "mfa" | "timed_out" | "error";

/** The outcome a typed username asks for (rule arcadia-simulator-usernames). */
export function simulatedOutcome(username: string): SimOutcome {
  const u = username.toLowerCase();
  if (u.includes("error")) return "error";
  if (u.includes("timeout")) return "timed_out";
  if (u.includes("mfa")) return "mfa";
  if (u.includes("bad")) return "rejected";
  return "verified";
}

/** Connect's onClose status for an outcome (Arcadia's: verified, rejected, timed_out, pending, no_submit, error). */
const closeStatus: Record<SimOutcome, string> = {
  verified: "verified",
  rejected: "rejected",
  mfa: "pending",
  timed_out: "timed_out",
  error: "error",
};

const eventsFor: Record<Exclude<SimOutcome, "error">, string[]> = {
  verified: ["utility_credential_verified"],
  rejected: ["utility_credential_rejected"],
  mfa: ["utility_credential_mfa_required"],
  timed_out: ["utility_credential_timed_out"],
};

/** How long after a verification the simulator delivers the utility's first statement, on the api's clock. */
export const STATEMENT_DELAY_MS = 5_000;

/**
 * The first statement the simulator delivers for a verified login (rule connect-what-next): last month's bill,
 * its figures derived from the credential id (the same login, the same bill).
 */
export function simulatedStatement(credentialId: string, now: Date) {
  let h = 0;
  for (const ch of credentialId) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  const start = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), 1));
  const statement = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), Math.min(now.getUTCDate(), 3)),
  );
  const kwh = 1200 + (h % 1800);
  const rateCents = 14 + (h % 60) / 10;
  const electric = Math.round(kwh * rateCents);
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return {
    statement_id: `st_${credentialId}_${day(start)}`,
    statement_date: day(statement),
    service_start_date: day(start),
    service_end_date: day(end),
    consumption_kwh: String(kwh),
    demand_kw: String(8 + (h % 40)),
    rate_cents: rateCents.toFixed(1),
    total_charges_cents: String(electric + 1250),
    total_electric_charges_cents: String(electric),
  };
}

/** The simulator's own origin (this api's), from the configured provider URL that startApi set. */
const simBase = (deps: ApiDeps) => deps.config.arcadia.apiUrl ?? "";
const apiOrigin = (deps: ApiDeps) => simBase(deps).replace(/\/arcadia-sim$/, "");

/** Sends one signed event to the api's webhook endpoint, as the provider does. */
export async function sendSimulatedWebhook(deps: ApiDeps, type: string, data: Record<string, string>) {
  const body = JSON.stringify({ id: newId("evt"), type, created_at: clock.now().toISOString(), data });
  const timestamp = String(Math.floor(clock.nowMs() / 1000));
  try {
    await fetch(`${apiOrigin(deps)}/api/webhooks/arcadia`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "Arc-Webhook-Timestamp": timestamp,
        "Arc-Webhook-Signature": signWebhook(deps.config.arcadia.webhookSecret, timestamp, body),
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    deps.log("arcadia simulator: webhook not delivered", {
      err: error instanceof Error ? error.message : String(error),
    });
  }
}

function page(title: string, body: string, script = "") {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:24px;color:#1b1f24;background:#fff}main{max-width:420px;margin:0 auto}
label{display:block;font-weight:600;margin-top:12px}input,select{width:100%;box-sizing:border-box;padding:8px;font:inherit;border:1px solid #8a94a1;border-radius:6px}
button,.btn{margin-top:16px;padding:10px 16px;font:inherit;font-weight:600;border:0;border-radius:6px;background:#0b5cad;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
.secondary{background:#e8ecf0;color:#1b1f24}.brand{font-size:13px;color:#5b6570;text-transform:uppercase;letter-spacing:.08em}</style></head>
<body><main><p class="brand">Arcadia Connect (simulator)</p>${body}</main>${script}</body></html>`;
}

export function arcadiaSimulator(deps: ApiDeps): Router {
  const r = Router();
  const accessTokens = new Map<string, number>();
  const connectTokens = new Map<string, ConnectGrant>();
  const connectUrls = new Map<string, ConnectGrant>();
  /** Each credential submitted through Connect, with the provider user (our client) it was made for. */
  const credentials = new Map<string, string>();
  /** Statements to deliver once the api's clock reaches `due` (a few seconds after a verification). */
  const statements: { due: number; data: Record<string, string> }[] = [];
  const deliverDue = () => {
    const now = clock.nowMs();
    for (let i = statements.length - 1; i >= 0; i--) {
      const s = statements[i];
      if (s.due > now) continue;
      statements.splice(i, 1);
      void sendSimulatedWebhook(deps, "utility_statement_discovered", {
        ...s.data,
        ...simulatedStatement(s.data.utility_credential_id, clock.now()),
      });
    }
  };
  setInterval(deliverDue, 250).unref();
  r.use(express.json({ limit: "16kb" }), express.urlencoded({ extended: false, limit: "16kb" }));
  r.use((_req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    next();
  });

  const bearer = (req: express.Request) => {
    const token = /^Bearer (.+)$/.exec(req.get("authorization") ?? "")?.[1];
    const until = token ? accessTokens.get(token) : undefined;
    return until !== undefined && until > Date.now();
  };
  const subjectOf = (body: Record<string, unknown>): Subject | null => {
    if (typeof body.client_user_id === "string" && body.client_user_id)
      return { client_user_id: body.client_user_id };
    if (typeof body.utility_credential_id === "string" && body.utility_credential_id)
      return { utility_credential_id: body.utility_credential_id };
    return null;
  };

  r.post("/auth/access_token", (req, res) => {
    const { client_id, client_secret } = (req.body ?? {}) as Record<string, unknown>;
    const { clientId, clientSecret } = deps.config.arcadia;
    if (client_id !== clientId || client_secret !== clientSecret) {
      res.status(401).json({ error: "invalid_client" });
      return;
    }
    const token = newId("at");
    accessTokens.set(token, Date.now() + 2 * HOUR);
    res.json({ access_token: token, expires_in: 7200 });
  });

  r.post("/auth/connect_token", (req, res) => {
    const subject = bearer(req) ? subjectOf(req.body as Record<string, unknown>) : null;
    if (!subject) {
      res
        .status(bearer(req) ? 422 : 401)
        .json({ error: bearer(req) ? "client_user_id or utility_credential_id required" : "unauthorized" });
      return;
    }
    const token = newId("ct");
    const expires = clock.nowMs() + 2 * HOUR;
    connectTokens.set(token, { ...subject, expires });
    res.json({ connect_token: token, expires_at: new Date(expires).toISOString() });
  });

  r.post("/auth/connect_url", (req, res) => {
    const body = req.body as Record<string, unknown>;
    const subject = bearer(req) ? subjectOf(body) : null;
    if (!subject || typeof body.redirect_url !== "string") {
      res.status(bearer(req) ? 422 : 401).json({ error: bearer(req) ? "invalid request" : "unauthorized" });
      return;
    }
    const id = newId("cu");
    // The life asked for (`expires_in`, seconds), between 30 minutes and 5 days; 5 days when not asked.
    const asked =
      typeof body.expires_in === "number" && Number.isFinite(body.expires_in) ? body.expires_in : 0;
    const life = asked > 0 ? Math.min(Math.max(asked * 1000, MIN_URL_LIFE_MS), 5 * 24 * HOUR) : 5 * 24 * HOUR;
    const expires = clock.nowMs() + life;
    const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim().slice(0, 200) : undefined);
    connectUrls.set(id, {
      ...subject,
      expires,
      redirect: body.redirect_url,
      clientName: text(body.client_name),
      utility: text(body.utility_id),
    });
    res.json({ connect_url: `${simBase(deps)}/connect/${id}`, expires_at: new Date(expires).toISOString() });
  });

  // A credential's record (Arcadia's GET /utility_credentials/{id}): whose it is.
  r.get("/utility_credentials/:id", (req, res) => {
    if (!bearer(req)) {
      res.status(401).json({ error: "unauthorized" });
      return;
    }
    const owner = credentials.get(req.params.id);
    if (owner === undefined) {
      res.status(404).json({ error: "not_found" });
      return;
    }
    res.json({ id: req.params.id, client_user_id: owner });
  });

  const utilities = () =>
    deps.db.prepare("SELECT name, arcadia_provider_id FROM utilities ORDER BY name").all() as {
      name: string;
      arcadia_provider_id: string;
    }[];
  const form = (opts: {
    action: string;
    hidden: Record<string, string>;
    utility: string;
    update: boolean;
    cancel: string;
    /** Whose accounts these are (a hosted Connect URL's client). */
    clientName?: string;
  }) => {
    const options = utilities()
      .map(
        (u) =>
          `<option value="${escapeHtml(u.arcadia_provider_id)}"${u.arcadia_provider_id === opts.utility ? " selected" : ""}>${escapeHtml(u.name)}</option>`,
      )
      .join("");
    const hidden = Object.entries(opts.hidden)
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`)
      .join("");
    const forWhom = opts.clientName
      ? `<p data-testid="arc-client">Connecting utility accounts for ${escapeHtml(opts.clientName)}.</p>`
      : "";
    return `<h1>${opts.update ? "Update your utility login" : "Connect your utility account"}</h1>${forWhom}
<form method="post" action="${escapeHtml(opts.action)}">${hidden}
<label for="arc-utility">Utility</label><select id="arc-utility" name="utility">${options}</select>
<label for="arc-username">Utility username</label><input id="arc-username" name="username" autocomplete="off" required>
<label for="arc-password">Utility password</label><input id="arc-password" name="password" type="password" autocomplete="off" required>
<button type="submit">Submit credentials</button> ${opts.cancel}</form>`;
  };

  /** Records a submission and schedules its webhooks; the credential id, or null when Connect fails. */
  const submit = (grant: ConnectGrant, utility: string, username: string) => {
    const outcome = simulatedOutcome(username);
    if (outcome === "error") return { outcome, credential: null };
    const credential = grant.utility_credential_id ?? newId("uc");
    const owner = grant.client_user_id ?? credentials.get(credential) ?? "";
    if (owner) credentials.set(credential, owner);
    const data: Record<string, string> = {
      utility_credential_id: credential,
      client_user_id: owner,
      utility_id: utility,
      username,
    };
    const events = eventsFor[outcome];
    events.forEach((type, i) => {
      setTimeout(
        () => {
          void sendSimulatedWebhook(deps, type, data);
          // The utility's first statement follows a verification a few seconds later (on the api's clock).
          if (type === "utility_credential_verified")
            statements.push({ due: clock.nowMs() + STATEMENT_DELAY_MS, data });
        },
        deps.config.utilityProviderDelayMs + i * 200,
      ).unref();
    });
    return { outcome, credential };
  };

  /** A script for the embedded Connect's page that posts `msg` to the page that opened it (at `origin`). */
  const postTo = (origin: string) => (msg: object) =>
    `<script>parent.postMessage(${JSON.stringify(msg).replace(/</g, "\\u003c")}, ${JSON.stringify(origin).replace(/</g, "\\u003c")});</script>`;
  /** An unknown or expired Connect token: the page says so and tells its opener (Connect's onError). */
  const sendExpired = (res: Response, post: (msg: object) => string) =>
    res
      .status(401)
      .type("html")
      .send(
        page(
          "Connect",
          "<h1>This Connect session has expired.</h1>",
          post({ type: "error", error: "invalid_connect_token" }),
        ),
      );

  // The embedded Connect (in the overlay's frame, opened by the Connect script): talks to its opener by messages.
  r.get("/connect", (req, res) => {
    const token = String(req.query.token ?? "");
    const origin = String(req.query.origin ?? "");
    const grant = connectTokens.get(token);
    const post = postTo(origin);
    if (!grant || grant.expires < clock.nowMs()) {
      sendExpired(res, post);
      return;
    }
    res.type("html").send(
      page(
        "Connect",
        form({
          action: `${simBase(deps)}/connect/submit`,
          hidden: { token, origin },
          utility: String(req.query.utility ?? ""),
          update: Boolean(grant.utility_credential_id),
          cancel: "",
        }),
        post({ type: "open" }),
      ),
    );
  });

  r.post("/connect/submit", (req, res) => {
    const body = req.body as Record<string, string>;
    const grant = connectTokens.get(body.token ?? "");
    const origin = body.origin ?? "";
    const post = postTo(origin);
    if (!grant || grant.expires < clock.nowMs()) {
      sendExpired(res, post);
      return;
    }
    const { outcome, credential } = submit(grant, body.utility ?? "", body.username ?? "");
    if (!credential) {
      res
        .type("html")
        .send(
          page(
            "Connect",
            "<h1>Something went wrong.</h1><p>Connect could not reach the utility.</p>",
            post({ type: "error", error: "connect_failed" }),
          ),
        );
      return;
    }
    res
      .type("html")
      .send(
        page(
          "Connect",
          `<h1>Credentials submitted</h1><p>Status: ${closeStatus[outcome]}</p>`,
          post({ type: "submitted", utilityCredentialId: credential, status: closeStatus[outcome] }),
        ),
      );
  });

  // The hosted Connect page (the no-JavaScript path): a plain form, then back to the client's redirect URL.
  r.get("/connect/:id", (req, res) => {
    const grant = connectUrls.get(req.params.id);
    if (!grant || grant.expires < clock.nowMs()) {
      res.status(404).type("html").send(page("Connect", "<h1>This Connect link has expired.</h1>"));
      return;
    }
    // Cancel goes back saying so (`connect_status=cancelled`): the client's page must not read it as a login.
    const back = grant.redirect
      ? `<a class="btn secondary" href="${escapeHtml(withCancelled(grant.redirect))}">Cancel</a>`
      : "";
    res.type("html").send(
      page(
        "Connect",
        form({
          action: `${simBase(deps)}/connect/${req.params.id}`,
          hidden: {},
          // The utility and the client the URL was minted for (the api's session), not the address's query.
          utility: grant.utility ?? "",
          clientName: grant.clientName,
          update: Boolean(grant.utility_credential_id),
          cancel: back,
        }),
      ),
    );
  });

  r.post("/connect/:id", (req, res) => {
    const grant = connectUrls.get(req.params.id);
    if (!grant || grant.expires < clock.nowMs()) {
      res.status(404).type("html").send(page("Connect", "<h1>This Connect link has expired.</h1>"));
      return;
    }
    const body = req.body as Record<string, string>;
    const { credential } = submit(grant, body.utility ?? "", body.username ?? "");
    if (!credential) {
      res
        .status(502)
        .type("html")
        .send(
          page(
            "Connect",
            "<h1>Something went wrong.</h1><p>Connect could not reach the utility. Please try again.</p>",
          ),
        );
      return;
    }
    res.redirect(303, grant.redirect ?? "/");
  });

  r.get("/dist/v5.js", (_req, res) => {
    res.type("application/javascript").send(connectScript(simBase(deps)));
  });
  return r;
}

/** The Connect script copy: `_ArcConnect.validate` and `.create`, an overlay with the embedded Connect frame. */
function connectScript(base: string) {
  return `(function () {
  var BASE = ${JSON.stringify(base)};
  var ORIGIN = new URL(BASE).origin;
  function validate(config) {
    var errors = {};
    if (!config || typeof config.connectToken !== "string" || !config.connectToken) errors.connectToken = "connectToken is required.";
    if (config && config.env && config.env !== "sandbox" && config.env !== "production") errors.env = "env must be sandbox or production.";
    if (config && config.callbacks && typeof config.callbacks !== "object") errors.callbacks = "callbacks must be an object.";
    return Promise.resolve(Object.keys(errors).length ? errors : null);
  }
  function create(config) {
    var cb = config.callbacks || {};
    var submitted = null;
    var overlay = document.createElement("div");
    overlay.setAttribute("data-arc-connect", "");
    overlay.style.cssText = "position:fixed;inset:0;z-index:2147483000;background:rgba(15,20,25,.55);display:flex;align-items:center;justify-content:center";
    var box = document.createElement("div");
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-modal", "true");
    box.setAttribute("aria-label", "Arcadia Connect");
    box.style.cssText = "background:#fff;border-radius:10px;width:min(440px,94vw);height:min(620px,90vh);display:flex;flex-direction:column;overflow:hidden";
    var bar = document.createElement("div");
    bar.style.cssText = "display:flex;justify-content:flex-end;padding:4px";
    var close = document.createElement("button");
    close.type = "button";
    close.textContent = "\\u00d7";
    close.setAttribute("aria-label", "Close Connect");
    close.style.cssText = "font-size:24px;line-height:1;border:0;background:none;cursor:pointer;padding:4px 10px";
    var frame = document.createElement("iframe");
    frame.title = "Arcadia Connect";
    frame.style.cssText = "border:0;flex:1;width:100%";
    var data = config.newCredentialData || {};
    frame.src = BASE + "/connect?token=" + encodeURIComponent(config.connectToken) + "&origin=" + encodeURIComponent(location.origin) + (data.utilityId ? "&utility=" + encodeURIComponent(data.utilityId) : "");
    bar.appendChild(close);
    box.appendChild(bar);
    box.appendChild(frame);
    overlay.appendChild(box);
    function finish(status) {
      window.removeEventListener("message", onMessage);
      if (overlay.parentNode) overlay.parentNode.removeChild(overlay);
      if (cb.onClose) cb.onClose({ status: status });
    }
    function onMessage(event) {
      if (event.origin !== ORIGIN || event.source !== frame.contentWindow || !event.data) return;
      var m = event.data;
      if (m.type === "open" && cb.onOpen) cb.onOpen();
      if (m.type === "submitted") {
        submitted = m.status || "pending";
        if (cb.onCredentialsSubmitted) cb.onCredentialsSubmitted({ utilityCredentialId: m.utilityCredentialId });
      }
      if (m.type === "error") {
        if (cb.onError) cb.onError({ error: m.error });
        finish("error");
      }
    }
    close.addEventListener("click", function () { finish(submitted || "no_submit"); });
    window.addEventListener("message", onMessage);
    document.body.appendChild(overlay);
    close.focus();
    return Promise.resolve({ close: function () { finish(submitted || "no_submit"); } });
  }
  window._ArcConnect = { validate: validate, create: create };
})();
`;
}

/** The client's redirect URL with `connect_status=cancelled` added: how the hosted page's Cancel ends. */
function withCancelled(redirect: string) {
  const url = new URL(redirect);
  url.searchParams.set("connect_status", "cancelled");
  return url.toString();
}
