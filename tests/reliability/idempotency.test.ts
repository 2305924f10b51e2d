import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DANA } from "../support/pages";
import { getPage, startStack, webLogin, type Stack } from "../support/stack";

/**
 * Double submits (ADR 0010): the same thermostat setting, bill-flag answer or team-access save posted three
 * times, one after the other (a browser resubmit) or at the same moment (a double click), reaches the upstream
 * once, and every repeat is answered as the first was. Counted at the fault proxy in front of the real api.
 */
let stack: Stack;
let cookie: string;

beforeAll(async () => {
  stack = await startStack();
  cookie = await webLogin(stack.url, DANA);
});

afterAll(async () => {
  await stack?.stop();
});

type Field = { name: string; value: string; type: string; checked: boolean };

const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m
    ? m[1]
        .replace(/&quot;/g, '"')
        .replace(/&#x27;/g, "'")
        .replace(/&amp;/g, "&")
    : null;
};

/** The fields of the first form in `html` that contains `marker`. */
function formWith(html: string, marker: string): Field[] {
  const chunk = html
    .split("<form")
    .slice(1)
    .map((f) => f.slice(0, f.indexOf("</form>")))
    .find((f) => f.includes(marker));
  if (!chunk) throw new Error(`no form with ${marker}`);
  const fields: Field[] = [];
  for (const tag of chunk.match(/<input[^>]*>/g) ?? []) {
    const name = attr(tag, "name");
    if (!name) continue;
    fields.push({
      name,
      value: attr(tag, "value") ?? "",
      type: attr(tag, "type") ?? "text",
      checked: /\schecked=""/.test(tag),
    });
  }
  for (const m of chunk.matchAll(/<select[^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g)) {
    const selected =
      /<option[^>]*value="([^"]*)"[^>]*selected=""/.exec(m[2]) ?? /<option[^>]*value="([^"]*)"/.exec(m[2]);
    fields.push({ name: m[1], value: selected?.[1] ?? "", type: "select", checked: false });
  }
  return fields;
}

const value = (fields: Field[], name: string) => {
  const f = fields.find((x) => x.name === name);
  if (!f) throw new Error(`no field ${name}`);
  return f.value;
};

async function post(path: string, body: URLSearchParams) {
  const res = await fetch(`${stack.url}${path}`, {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body,
    redirect: "manual",
  });
  const session = res.headers
    .getSetCookie()
    .find((c) => c.includes("session="))
    ?.split(";")[0];
  const location = res.headers.get("location");
  await res.text();
  // The flash message the user sees: follow the redirect with the answer's own cookie.
  const toast = location && session ? toastOn((await getPage(stack.url, location, session)).body) : null;
  return { status: res.status, location, toast };
}

/** Every toast on the page (the control room may also show a finished command's outcome), joined. */
function toastOn(html: string) {
  const all = [...html.matchAll(/data-testid="toast"[^>]*>([\s\S]*?)<\/div>/g)].map((m) =>
    m[1].replace(/<[^>]+>/g, "").trim(),
  );
  return all.length ? all.join(" | ") : null;
}

/** Posts `body` three times, one after the other or all at once, and returns the answers. */
async function thrice(path: string, body: URLSearchParams, mode: "sequential" | "concurrent") {
  if (mode === "concurrent") return Promise.all([post(path, body), post(path, body), post(path, body)]);
  const out = [];
  for (let i = 0; i < 3; i++) out.push(await post(path, body));
  return out;
}

/** The form's submission id; absent before the fix, so the same test then shows the duplicate calls. */
const idOf = (fields: Field[]) =>
  fields.filter((f) => f.name === "submissionId").map((f) => ["submissionId", f.value] as [string, string]);

const callsTo = (method: string, pattern: RegExp) =>
  stack.proxy.calls.filter((c) => c.method === method && pattern.test(c.path)).length;

describe("thermostat settings posted three times", () => {
  const path = "/locations/104/control";
  it.each(["sequential", "concurrent"] as const)(
    "%s: one vendor command, the same answer each time",
    async (mode) => {
      const page = await getPage(stack.url, path, cookie);
      const form = formWith(page.body, 'name="thermostatId" value="1012"');
      const cool = Number(value(form, "coolSetpointF"));
      const body = new URLSearchParams({
        thermostatId: "1012",
        tab: value(form, "tab"),
        ...Object.fromEntries(idOf(form)),
        mode: value(form, "mode"),
        coolSetpointF: String(cool + (mode === "sequential" ? 1 : 2)),
        heatSetpointF: value(form, "heatSetpointF"),
        intent: "save",
      });
      const before = callsTo("POST", /^\/thermostats\/1012\/settings$/);
      const answers = await thrice(path, body, mode);
      expect(callsTo("POST", /^\/thermostats\/1012\/settings$/) - before).toBe(1);
      for (const a of answers) {
        expect(a.status).toBe(302);
        expect(a.location).toBe(answers[0].location);
        expect(a.location).toMatch(/watch=1012%3A\d+/);
        expect(a.toast).toContain("Thermostat update submitted");
      }
      // The form carried a server-rendered id, and the next render of the form has a new one.
      const id = value(form, "submissionId");
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const next = formWith(
        (await getPage(stack.url, path, cookie)).body,
        'name="thermostatId" value="1012"',
      );
      expect(value(next, "submissionId")).not.toBe(id);
    },
  );

  it("a different change under a reused id is a new submission", async () => {
    const form = formWith((await getPage(stack.url, path, cookie)).body, 'name="thermostatId" value="1012"');
    const base = {
      thermostatId: "1012",
      tab: value(form, "tab"),
      ...Object.fromEntries(idOf(form)),
      intent: "save",
    };
    const before = callsTo("POST", /^\/thermostats\/1012\/settings$/);
    await post(
      path,
      new URLSearchParams({ ...base, mode: "cool", coolSetpointF: "80", heatSetpointF: "60" }),
    );
    await post(
      path,
      new URLSearchParams({ ...base, mode: "cool", coolSetpointF: "81", heatSetpointF: "60" }),
    );
    expect(callsTo("POST", /^\/thermostats\/1012\/settings$/) - before).toBe(2);
  });
});

describe("a bill-flag answer posted three times", () => {
  const path = "/locations/101/spending";
  it.each([
    ["sequential", 0],
    ["concurrent", 0], // the first flag still open: the sequential case answered the other
  ] as const)("%s: one upstream answer, the same redirect each time", async (mode, nth) => {
    const page = await getPage(stack.url, path, cookie);
    const flagIds = [...page.body.matchAll(/name="flagId" value="(\d+)"/g)].map((m) => m[1]);
    expect(flagIds.length).toBeGreaterThan(nth);
    const form = formWith(page.body, `name="flagId" value="${flagIds[nth]}"`);
    const body = new URLSearchParams({
      statementId: value(form, "statementId"),
      flagId: flagIds[nth],
      ...Object.fromEntries(idOf(form)),
      intent: "investigate",
    });
    const flagCall = new RegExp(`^/bill-statement/\\d+/bill-flag/${flagIds[nth]}$`);
    const before = callsTo("PATCH", flagCall);
    const answers = await thrice(path, body, mode);
    expect(callsTo("PATCH", flagCall) - before).toBe(1);
    for (const a of answers) {
      expect(a.status).toBe(302);
      // The redirect names the answered flag: focus (or the scroll) lands on its new state.
      expect(a.location).toBe(`${path}#flag-${flagIds[nth]}`);
      expect(a.toast).toBe(answers[0].toast);
      expect(a.toast).toMatch(/\S/);
    }
  });
});

describe("a team-access save posted three times", () => {
  it.each(["sequential", "concurrent"] as const)(
    "%s: one upstream change, the same redirect each time",
    async (mode) => {
      const team = await getPage(stack.url, "/settings?tab=team", cookie);
      const at = team.body.indexOf("Edit access for Priya Shah");
      const userId = /^[^>]*href="[^"]*edit=(\d+)"/.exec(team.body.slice(at))?.[1];
      expect(userId).toBeDefined();
      const path = `/settings?tab=team&edit=${userId}`;
      const form = formWith((await getPage(stack.url, path, cookie)).body, `name="userId" value="${userId}"`);
      const boxes = form.filter((f) => f.name === "building");
      expect(boxes.length).toBeGreaterThan(2);
      // Flip one location (a different one per mode).
      const flip = boxes[mode === "sequential" ? 0 : 1];
      const chosen = boxes.filter((b) => (b === flip ? !b.checked : b.checked)).map((b) => b.value);
      const body = new URLSearchParams([
        ["userId", userId!],
        ...idOf(form),
        ...chosen.map((c) => ["building", c]),
        ["intent", "access-save"],
      ]);
      const before = callsTo("PUT", /^\/user_building_access$/);
      const answers = await thrice(path, body, mode);
      expect(callsTo("PUT", /^\/user_building_access$/) - before).toBe(1);
      for (const a of answers) {
        expect(a.status).toBe(302);
        expect(a.location).toBe("/settings?tab=team");
        expect(a.toast).toMatch(/Location access saved for Priya Shah \(1 location changed\)\./);
      }
    },
  );
});
