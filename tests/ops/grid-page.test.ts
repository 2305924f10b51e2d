import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_METAFILE } from "../../shared/build-output.mjs";
import { startStack, webLogin, type Stack } from "../support/stack";

/**
 * What the grid services page costs the browser, read from the build this suite runs against
 * (`npm run build` first) and from the running server:
 * - its JavaScript leaves out date-fns and @date-fns/tz: the server writes the event times;
 * - its loader data carries the rows as the table writes them, and a row's thermostats only when the row is
 *   expanded (`open` in the URL), not the upstream's dispatches with every event's thermostats.
 */

type Metafile = {
  outputs: Record<
    string,
    { entryPoint?: string; imports: { path: string }[]; inputs: Record<string, unknown> }
  >;
};

/** Every source file in the browser chunks a route module loads (its own and the shared chunks it imports). */
function browserInputs(routeFile: string): string[] {
  const meta = JSON.parse(fs.readFileSync(BROWSER_METAFILE, "utf8")) as Metafile;
  const entry = Object.entries(meta.outputs).find(([, o]) => o.entryPoint?.includes(routeFile));
  if (!entry) throw new Error(`no browser chunk for ${routeFile}`);
  const seen = new Set<string>();
  const inputs = new Set<string>();
  const visit = (out: string) => {
    if (seen.has(out) || !meta.outputs[out]) return;
    seen.add(out);
    for (const i of Object.keys(meta.outputs[out].inputs)) inputs.add(i);
    for (const i of meta.outputs[out].imports) visit(i.path);
  };
  visit(entry[0]);
  return [...inputs];
}

describe("the grid services page's JavaScript", () => {
  it("leaves out date-fns and @date-fns/tz", () => {
    const inputs = browserInputs("routes/_app.grid-services.tsx");
    // The walk really reached the page's own code and React.
    expect(inputs).toContain("app/features/grid-services/components/dispatch-table.tsx");
    expect(inputs.some((i) => i.includes("node_modules/react-dom/"))).toBe(true);
    expect(inputs.filter((i) => /node_modules\/(date-fns|@date-fns\/tz)\//.test(i))).toEqual([]);
  });
});

describe("the grid services page's loader data", () => {
  let stack: Stack;
  let cookie: string;
  beforeAll(async () => {
    stack = await startStack();
    cookie = await webLogin(stack.url, "dana@harborcoffee.test");
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** The route's data as the browser fetches it on a client navigation (single fetch, turbo-stream text). */
  const data = async (search: string) => {
    const res = await fetch(`${stack.url}/grid-services.data${search}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    return res.text();
  };

  it("sends rows in words, and no closed row's thermostats", async () => {
    const text = await data("?q=Pike");
    expect(text).toContain('"rows"');
    expect(text).toContain("Pike Pl"); // Pike Place's events are there
    expect(text).toMatch(/"\d{1,2}:\d{2} [AP]M P[SD]T"/); // times written by the server
    for (const key of ["thermostatActionsInsights", "buildingTimezone", "deviceName", '"thermostats"'])
      expect(text, key).not.toContain(key);
  });

  it("sends the thermostats of an expanded row", async () => {
    const html = await (await fetch(`${stack.url}/grid-services?q=Pike`, { headers: { cookie } })).text();
    const id = /open=(\d+)/.exec(html)?.[1];
    expect(id).toBeTruthy();
    const text = await data(`?q=Pike&open=${id}`);
    expect(text).toContain('"thermostats"');
    expect(text).toContain("deviceName");
  });
});
