import { randomUUID } from "node:crypto";
import type { Cluster, WebInstance } from "../scale/cluster";
import { DANA } from "../support/pages";

/** One answer (or failure to answer) seen by the load driver. */
export type Sample = {
  kind: "page" | "signin" | "readyz" | "post";
  what: string;
  /** When it was sent (ms since the epoch) and how long its answer took. */
  at: number;
  ms: number;
  /** The HTTP status, or 0 when no answer came (refused, reset, the client's own time-out). */
  status: number;
  /** The answer is what a working site gives: a page, a signed-in redirect, an accepted change. */
  ok: boolean;
  body: string;
  error?: string;
  /**
   * No answer on a kept-alive connection the other end closed as idle at the moment it was sent (nginx's
   * old workers do on a reload): nothing was processed, and the driver sends it again at once on a new
   * connection, as browsers do (RFC 9112 §9.3.1). Counted, not a failure.
   */
  stale?: boolean;
};

/** One idempotent submission: its key, every attempt's status, and the api action it created once accepted. */
export type Submission = {
  id: string;
  thermostatId: string;
  statuses: number[];
  actionId: number | null;
  /** With `repeat`: the action the same submission, sent again at once, answered with. */
  repeatActionId?: number | null;
  /** The instances (`host:port`) that answered the accepted attempt and the repeat. */
  acceptedBy?: string;
  repeatedBy?: string;
};

export type LoadOptions = {
  /**
   * Signed-in session cookies; the loops take them in turn. nginx keeps each session on one instance, so
   * sessions on both instances put load on both.
   */
  cookies: string[];
  /** Thermostats of location 104 the posts change (each its own loop). */
  thermostats: string[];
  /**
   * The two cool setpoints each thermostat's changes alternate between: inside the device's limits and both
   * unlike its current setting, whatever earlier changes asked (`changeSetpoints`).
   */
  setpoints: Record<string, [number, number]>;
  /** A request still unanswered after this is cut and recorded with status 0. */
  clientTimeoutMs: number;
  /** Bounds: the driver stops on its own after this many requests or this long, whichever comes first. */
  maxRequests: number;
  maxMs: number;
  /** Send every accepted change a second time at once (a double click) with the same submission id. */
  repeat?: boolean;
};

const PAGES = ["/locations", "/locations/104/control", "/settings?tab=team", "/locations/101/spending"];
/** The control room of location 104, whose thermostats the changes are made on. */
export const CONTROL = "/locations/104/control";
/** Pause between a loop's requests: a steady mix, not a flood (the overload suite does floods). */
const THINK_MS = 60;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A field's value in a form's HTML. */
const field = (form: string, name: string) =>
  new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(form)?.[1] ?? "";

/** The thermostat settings forms of the control room, read once (their tab and current setpoints). */
export async function settingsForms(c: Cluster, cookie: string, thermostats: string[]) {
  const page = await c.request(CONTROL, { headers: { cookie } });
  if (page.status !== 200) throw new Error(`the control room answered ${page.status}`);
  return Object.fromEntries(
    thermostats.map((id) => {
      const form = page.body.split("<form").find((f) => f.includes(`name="thermostatId" value="${id}"`));
      if (!form) throw new Error(`no settings form for thermostat ${id}`);
      return [
        id,
        {
          tab: field(form, "tab"),
          cool: Number(field(form, "coolSetpointF")),
          heat: field(form, "heatSetpointF"),
        },
      ];
    }),
  );
}

/**
 * Steady load on loopback, bounded in count and time: page views as a signed-in user and sign-in posts
 * through nginx, `/readyz` on each instance directly (as an orchestrator probes it; through nginx its 503s
 * would count as instance failures), and thermostat settings changes, each with its own submission id. A
 * change that is not accepted is sent again with the same id (as a browser resubmits) until it is, so a
 * change applied during a fault and then resent shows up as a second api action if idempotency fails.
 */
export async function startLoad(c: Cluster, instances: WebInstance[], o: LoadOptions) {
  const samples: Sample[] = [];
  const submissions: Submission[] = [];
  const started = Date.now();
  let running = true;
  /** When the driver was stopped or ran out of its budget. */
  let endedAt = 0;
  const budgetLeft = () => {
    const left = running && samples.length < o.maxRequests && Date.now() - started < o.maxMs;
    if (!left && !endedAt) endedAt = Date.now();
    return left;
  };
  const forms = await settingsForms(c, o.cookies[0], o.thermostats);
  const cookieOf = (n: number) => o.cookies[n % o.cookies.length];

  async function send(
    kind: Sample["kind"],
    what: string,
    call: () => Promise<{ status: number; body: string; location?: string | null; upstream?: string }>,
    isOk: (a: { status: number; body: string; location?: string | null }) => boolean,
  ) {
    for (let attempt = 0; ; attempt++) {
      const at = Date.now();
      try {
        const a = await call();
        const s: Sample = {
          kind,
          what,
          at,
          ms: Date.now() - at,
          status: a.status,
          ok: isOk(a),
          body: a.body,
        };
        samples.push(s);
        // nginx's last try is the instance that answered.
        return { sample: s, location: a.location ?? null, by: a.upstream?.split(",").pop()?.trim() ?? "" };
      } catch (error) {
        const s: Sample = { kind, what, at, ms: Date.now() - at, status: 0, ok: false, body: "" };
        s.error = String(error);
        const stale = (error as { reusedSocket?: boolean }).reusedSocket === true && !/timeout/.test(s.error);
        if (stale) s.stale = true;
        samples.push(s);
        // As a browser does: a request that met a keep-alive connection the server had just closed is sent
        // again; the next pooled connection may be closed too (nginx's reload closes them all), so a few times.
        if (stale && attempt < 3) continue;
        return { sample: s, location: null, by: "" };
      }
    }
  }

  const pageLoop = async (n: number, cookie: string) => {
    for (let i = n; budgetLeft(); i++) {
      const p = PAGES[i % PAGES.length];
      await send(
        "page",
        `GET ${p}`,
        () => c.request(p, { headers: { cookie } }, o.clientTimeoutMs),
        (a) => a.status === 200 && a.body.includes("</html>"),
      );
      await sleep(THINK_MS);
    }
  };

  const signInLoop = async () => {
    while (budgetLeft()) {
      await send(
        "signin",
        "POST /login",
        () =>
          c.request(
            `/login?email=${encodeURIComponent(DANA)}`,
            {
              method: "POST",
              body: new URLSearchParams({
                intent: "password",
                email: DANA,
                password: "demo-pass-2024",
                next: "/",
              }),
            },
            o.clientTimeoutMs,
          ),
        (a) => a.status === 302 && a.location === "/",
      );
      await sleep(THINK_MS * 3);
    }
  };

  const readyLoop = async () => {
    while (budgetLeft()) {
      for (const instance of instances) {
        await send(
          "readyz",
          `GET /readyz ${instance.name}`,
          async () => {
            const res = await fetch(`${instance.url}/readyz`, {
              signal: AbortSignal.timeout(o.clientTimeoutMs),
            });
            return { status: res.status, body: await res.text() };
          },
          // Any answer is an answer; whether it tells the truth is each scenario's check.
          (a) => a.status === 200 || a.status === 503,
        );
      }
      await sleep(THINK_MS * 3);
    }
  };

  const postLoop = async (thermostatId: string, cookie: string) => {
    const f = forms[thermostatId];
    for (let i = 0; budgetLeft(); i++) {
      const sub: Submission = { id: randomUUID(), thermostatId, statuses: [], actionId: null };
      submissions.push(sub);
      const body = new URLSearchParams({
        thermostatId,
        tab: f.tab,
        submissionId: sub.id,
        mode: "cool",
        coolSetpointF: String(o.setpoints[thermostatId][i % 2]),
        heatSetpointF: f.heat,
        intent: "save",
      });
      // Resent until accepted; a submission is never abandoned while the driver runs, and for at most
      // 20 s after it ends (then it counts as not accepted, which the scenario reports).
      const giveUp = () => !budgetLeft() && Date.now() - endedAt > 20_000;
      while (sub.actionId === null && !giveUp()) {
        const { sample, location, by } = await send(
          "post",
          `POST thermostat ${thermostatId}`,
          () => c.request(CONTROL, { method: "POST", headers: { cookie }, body }, o.clientTimeoutMs),
          (a) => a.status === 302 && /watch=\d+%3A\d+/.test(a.location ?? ""),
        );
        sub.statuses.push(sample.status);
        const watch = /watch=(\d+)%3A(\d+)/.exec(location ?? "");
        if (sample.ok && watch) {
          sub.actionId = Number(watch[2]);
          sub.acceptedBy = by;
        } else await sleep(300);
      }
      if (sub.actionId !== null && o.repeat) {
        // A second click: the same submission again, at once; it must answer the first one's action.
        const { location, by } = await send(
          "post",
          `POST thermostat ${thermostatId} (again)`,
          () => c.request(CONTROL, { method: "POST", headers: { cookie }, body }, o.clientTimeoutMs),
          (a) => a.status === 302 && /watch=\d+%3A\d+/.test(a.location ?? ""),
        );
        const watch = /watch=(\d+)%3A(\d+)/.exec(location ?? "");
        sub.repeatActionId = watch ? Number(watch[2]) : null;
        sub.repeatedBy = by;
      }
      await sleep(THINK_MS);
    }
  };

  const loops = [
    pageLoop(0, cookieOf(0)),
    pageLoop(2, cookieOf(1)),
    signInLoop(),
    readyLoop(),
    ...o.thermostats.map((t, n) => postLoop(t, cookieOf(n))),
  ];
  return {
    samples,
    submissions,
    /** Samples sent from `since` on (ms since the epoch), optionally until `until`. */
    between: (since: number, until = Infinity) => samples.filter((s) => s.at >= since && s.at < until),
    async stop() {
      running = false;
      budgetLeft();
      await Promise.all(loops);
    },
  };
}

export type Load = Awaited<ReturnType<typeof startLoad>>;
