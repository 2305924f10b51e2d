import type { FormHTMLAttributes } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { cardTimesOf } from "~/features/thermostats/control-room.server";
import type { CardTimes, ThermostatInfo } from "~/features/thermostats/thermostats";

// The card's fetchers render a plain <form>: the test renders components, not a Remix app.
vi.mock("@remix-run/react", () => ({
  // The cards' submit buttons read the page's navigation for their pending state.
  useNavigation: () => ({ state: "idle", formData: undefined, location: undefined }),
  useFetcher: () => ({
    state: "idle",
    data: undefined,
    Form: ({ method, ...props }: FormHTMLAttributes<HTMLFormElement>) => (
      <form method={method} action="/locations/101/control" {...props} />
    ),
  }),
}));
// Counts the Conform forms a render builds.
vi.mock("@conform-to/react", async (original) => {
  const actual = await original<typeof import("@conform-to/react")>();
  return {
    ...actual,
    useForm: vi.fn((...args: Parameters<typeof actual.useForm>) => actual.useForm(...args)),
  };
});

const { useForm } = await import("@conform-to/react");
const { ThermostatCard } = await import("~/features/thermostats/components/thermostat-card");
const { loadLiveSettingsForm, SettingsForm } =
  await import("~/features/thermostats/components/settings-form");

function device(o: Partial<ThermostatInfo["state"]> = {}, action: ThermostatInfo["thermostatAction"] = null) {
  return {
    thermostat: {
      id: 7,
      buildingId: 101,
      deviceName: "Front Counter",
      vendor: "enode",
      status: 1,
      issueAutoresolve: false,
      vendorData: {},
    },
    state: {
      tempIndoorF: 70,
      mode: "cool",
      coolSetpointF: 74,
      heatSetpointF: 68,
      allowedModes: ["auto", "cool", "heat", "off"],
      lastSeen: "2026-11-20T13:00:00Z",
      minSetpointF: 50,
      maxSetpointF: 90,
      minAutoSpacingF: 3,
      hasSchedule: true,
      ...o,
    },
    thermostatAction: action,
    isReachable: true,
    dispatch: null,
    issues: [],
  } satisfies ThermostatInfo;
}

/** The same HTML whatever order a component wrote its attributes in. */
const normalised = (html: string) =>
  html.replace(/<([a-z]+)((?:\s[^\s=>]+(?:="[^"]*")?)*)\s*(\/?)>/g, (_, tag: string, attrs: string, end) => {
    const list = attrs.match(/[^\s=>]+(?:="[^"]*")?/g) ?? [];
    return `<${tag} ${[...list].sort().join(" ")}${end}>`;
  });

const form = (item: ThermostatInfo, live: boolean) =>
  renderToStaticMarkup(<SettingsForm item={item} tab="all" submissionId="s-1" live={live} />);

const card = (item: ThermostatInfo, times: CardTimes = { lastSeen: {}, local: {} }) =>
  renderToStaticMarkup(
    <ThermostatCard
      item={item}
      tab="all"
      showVendor={false}
      openBack={false}
      submissionId="s-1"
      now={Date.parse("2026-11-22T12:00:00Z")}
      times={times}
    />,
  );

describe("a control-room card at hydration", () => {
  beforeAll(async () => {
    // The live form is a lazily loaded chunk: the server writes a page once everything is ready
    // (entry.server.tsx), so it renders the live form. renderToStaticMarkup does not wait: load it first, as
    // the page's first render would, then every render below has it.
    form(device(), true);
    await loadLiveSettingsForm();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
  beforeEach(() => {
    vi.mocked(useForm).mockClear();
  });

  it("renders its closed setting form without building a Conform form", () => {
    const html = card(device());
    expect(html).toContain('<details class="thermo-settings">');
    expect(html).toContain('name="coolSetpointF"');
    expect(useForm).not.toHaveBeenCalled();
  });

  it("renders the closed form as the same HTML as the Conform form (no-JS users submit it)", () => {
    const pending = {
      id: 3,
      thermostatId: 7,
      status: "pending" as const,
      deviceSpecificData: { mode: "heat", heatSetpointF: 70 },
      dispatchId: null,
      thermostatName: "Front Counter",
      reason: null,
      createdAt: "2026-11-22T11:00:00Z",
      finishedAt: null,
    };
    for (const item of [
      device(),
      device({ mode: null, coolSetpointF: null, heatSetpointF: null }),
      device({ mode: "emergencyheat", minSetpointF: 45, maxSetpointF: 92 }),
      device({}, pending),
    ]) {
      const closed = form(item, false);
      expect(closed).toContain('novalidate=""');
      expect(normalised(closed)).toBe(normalised(form(item, true)));
    }
    expect(vi.mocked(useForm).mock.calls.length).toBe(4);
  });

  it("runs Conform to show the server's reply to a Save", () => {
    const reply = {
      intent: "save" as const,
      thermostatId: 7,
      lastResult: {
        status: "error" as const,
        error: { coolSetpointF: ["Cool setpoint must be at most 90°F"] },
      },
    };
    const html = renderToStaticMarkup(
      <ThermostatCard
        item={device()}
        tab="all"
        showVendor={false}
        openBack={false}
        submissionId="s-1"
        now={0}
        times={{ lastSeen: {}, local: {} }}
        serverReply={reply}
      />,
    );
    expect(useForm).toHaveBeenCalled();
    expect(html).toContain("Cool setpoint must be at most 90°F");
  });

  it("writes the instants the server wrote out instead of formatting them in the browser", () => {
    const html = card(device({ lastSeen: "2026-11-20T13:00:00Z" }, null), {
      lastSeen: { "2026-11-20T13:00:00Z": "(server time)" },
      local: {},
    });
    expect(html).not.toContain("(server time)"); // a reachable device shows no "Last seen"
    const offline = { ...device({ lastSeen: "2026-11-20T13:00:00Z" }), isReachable: false };
    expect(card(offline, { lastSeen: { "2026-11-20T13:00:00Z": "(server time)" }, local: {} })).toContain(
      "Last seen: (server time)",
    );
    // Last seen stays in New York time, whatever the building's zone (the spec).
    expect(card(offline, cardTimesOf([offline], "America/Los_Angeles"))).toContain(
      "Last seen: Nov 20, 2026, 8:00 AM ET",
    );
  });
});
