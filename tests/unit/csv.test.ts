import { describe, expect, it } from "vitest";
import { csvDownload } from "~/server/csv";
import { toCsv, type CsvCell } from "../../shared/csv";
import { historyCsvRows } from "~/features/compliance/compliance";
import { usageCsvRows } from "~/features/usage/chart-data";

/** One CSV writer for every export, quoting per RFC 4180 and neutralising formula injection. */
const one = (cell: CsvCell) => toCsv([[cell]]).slice(0, -2);

describe("toCsv", () => {
  it("writes CRLF records and ends with one", () => {
    expect(
      toCsv([
        ["a", "b"],
        [1, 2],
      ]),
    ).toBe("a,b\r\n1,2\r\n");
    expect(toCsv([])).toBe("");
  });

  it.each<[CsvCell, string]>([
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["line\nbreak", '"line\nbreak"'],
    ["carriage\rreturn", '"carriage\rreturn"'],
    ["crlf\r\ninside", '"crlf\r\ninside"'],
    ["trailing\n", '"trailing\n"'],
    ["", ""],
    [null, ""],
    [undefined, ""],
    ["°F – café", "°F – café"],
  ])("quotes %j as %j", (cell, expected) => {
    expect(one(cell)).toBe(expected);
  });

  it.each<[string, string]>([
    ["=1+1", "'=1+1"],
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ["+SUM(A1:A2)", "'+SUM(A1:A2)"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\t=1", "'\t=1"],
    ["\r=1", `"'\r=1"`],
    ["＝1+1", "'＝1+1"],
    ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
  ])("neutralises the formula %j as %j", (cell, expected) => {
    expect(one(cell)).toBe(expected);
  });

  it.each(["-", "-A1", "-1-1", "-1e3", "-.5", "- 3", "-3,5", "--3", "-3.", "-Infinity"])(
    "text that only looks numeric, %j, is neutralised",
    (cell) => {
      expect(one(cell).replace(/^"/, "")).toMatch(/^'/);
    },
  );

  it("keeps numbers as numbers, negative ones included, as numbers or as plain decimal text", () => {
    expect(toCsv([[-3, -0.5, 0, 42.25, 1e21]])).toBe("-3,-0.5,0,42.25,1e+21\r\n");
    expect(toCsv([["-3", "-12.50", "200.00", "0"]])).toBe("-3,-12.50,200.00,0\r\n");
    expect(toCsv([[Number.NaN, Number.POSITIVE_INFINITY, 1]])).toBe(",,1\r\n");
  });

  it("leaves a formula-looking character inside a cell alone", () => {
    expect(one("a=b")).toBe("a=b");
    expect(one("Cost (-10%)")).toBe("Cost (-10%)");
  });
});

describe("the web downloads go through it", () => {
  it("usage: upstream text is neutralised, negative temperatures stay numbers", () => {
    const rows = usageCsvRows([{ startTs: "=1+1", energy: 2.5, outdoor: -4, indoor: 68 }], "demand", {
      energy: "@kW",
      temperature: "°F",
    });
    expect(toCsv(rows).split("\r\n")).toEqual([
      "Period start,Demand (@kW),Outdoor temperature (°F),Indoor temperature (°F)",
      "'=1+1,2.5,-4,68",
      "",
    ]);
  });

  it("thermostat history: a negative setpoint is a number, an empty one is empty, records end in CRLF", () => {
    const csv = toCsv(
      historyCsvRows(
        [
          {
            recordedAt: "2026-01-05T12:00:00.000Z",
            scheduleSetpointF: -2,
            coolSetpointF: null,
            heatSetpointF: 60,
            indoorTemperatureF: 61,
          },
        ],
        ["schedule", "cool"],
        "UTC",
      ),
    );
    expect(csv).toBe("Time,Recommended Schedule (°F),Cool Setpoint (°F)\r\n2026-01-05 12:00,-2,\r\n");
  });
});

describe("csvDownload", () => {
  it("answers the rows as an attachment that is never cached", async () => {
    const res = csvDownload(
      [
        ["Date", "kWh"],
        ["=cmd", -3.5],
      ],
      "demand-104-2026-11-01.csv",
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="demand-104-2026-11-01.csv"');
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await res.text()).toBe("Date,kWh\r\n'=cmd,-3.5\r\n");
  });
});
