import { describe, expect, it } from "vitest";
import { loginRedirectUrl, safeRedirect, signInLanding } from "~/server/safe-redirect";

describe("safeRedirect", () => {
  it.each([
    ["/locations", "/locations"],
    ["/locations/101/control?tab=issues", "/locations/101/control?tab=issues"],
    ["/a#b", "/a#b"],
  ])("keeps the same-origin path %s", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  it.each([
    "//evil.example",
    "/\\evil.example",
    "https://evil.example/",
    "http:/evil.example",
    "javascript:alert(1)",
    "%2F%2Fevil.example",
    "/%2F%2Fevil.example",
    "%2f%5cevil.example",
    "/%5Cevil.example",
    "/\tevil",
    "/\u0000x",
    "evil.example",
    "",
    null,
    undefined,
    "x".repeat(3000),
    "/%E0%A4%A",
  ])("refuses %j", (input) => {
    expect(safeRedirect(input as string)).toBe("/");
  });

  // The old check looked at the raw string but answered the normalised path, so dot segments
  // (plain or percent-encoded) that collapse into `//host` passed. Each of these must end on the fallback.
  it.each([
    "/.//evil.example",
    "/%2e//evil.example",
    "/%2E//evil.example",
    "/a/..//evil.example",
    "/..//evil.example",
    "/../..//evil.example",
    "/%2e%2e//evil.example",
    "/a/%2e%2e//evil.example",
    "/.%2e//evil.example",
    "/./\\evil.example",
    "/.\\/evil.example",
    "/.%5c/evil.example",
    "/.%5C%2fevil.example",
    "/.%2f/evil.example",
    "/%2f/evil.example",
    "/a/%2e%2e/%2fevil.example",
    "/x/..%2f/evil.example",
    "/%252f%252fevil.example",
    "/.%252f/evil.example",
    "/%2e%252f/evil.example",
    "/\t/evil.example",
    "/.\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/%09/evil.example",
    "/.%09/evil.example",
    "/%0a/evil.example",
    "/%00/x",
    "/%E0%A4%A/x",
    " //evil.example",
    "\t//evil.example",
    "/./..//evil.example",
  ])("refuses %j, which normalises to another host", (input) => {
    expect(safeRedirect(input)).toBe("/");
  });

  it.each([
    ["/a/./b/../c?x=1#h", "/a/c?x=1#h"],
    ["/locations/%2e/101", "/locations/101"],
    [
      "/dismiss-thermostat-issue?thermostatId=1024&issueSlug=permanent_hold",
      "/dismiss-thermostat-issue?thermostatId=1024&issueSlug=permanent_hold",
    ],
    ["/locations?q=%2F%2Fnot-a-path", "/locations?q=%2F%2Fnot-a-path"],
    ["/a b", "/a%20b"],
  ])("answers the normalised same-origin path for %j", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  it("what it answers is stable: checked again it is unchanged", () => {
    for (const input of ["/a/./b/../c?x=1#h", "/locations/101/control?tab=issues", "/a%20b"]) {
      const once = safeRedirect(input);
      expect(safeRedirect(once)).toBe(once);
    }
  });

  it("uses the fallback", () => {
    expect(safeRedirect("//x", "/locations")).toBe("/locations");
  });

  it("builds login URLs with next", () => {
    expect(loginRedirectUrl("http://h/locations?sort=name")).toBe("/login?next=%2Flocations%3Fsort%3Dname");
    expect(loginRedirectUrl("http://h/")).toBe("/login");
    expect(loginRedirectUrl("http://h/locations/101/control.data")).toBe(
      "/login?next=%2Flocations%2F101%2Fcontrol",
    );
  });
});

describe("signInLanding (rule sign-in-keeps-flag)", () => {
  it("lands on the grid event the results email opens: its row's anchor", () => {
    expect(signInLanding("/grid-services?q=LoDo&from=2026-11-01&to=2026-11-30&open=61")).toBe(
      "/grid-services?q=LoDo&from=2026-11-01&to=2026-11-30&open=61#event-61",
    );
    // Only on Grid Services, and only an id.
    expect(signInLanding("/findings?open=61")).toBe("/findings?open=61");
    expect(signInLanding("/grid-services?open=61x")).toBe("/grid-services?open=61x");
  });

  it("lands on the flag the query names: its anchor, which the browser never sent", () => {
    expect(signInLanding("/locations/101/spending?accountId=1001&billId=9&flag=7001")).toBe(
      "/locations/101/spending?accountId=1001&billId=9&flag=7001#flag-7001",
    );
    expect(signInLanding("/locations/101/spending?flag=7001")).toBe(
      "/locations/101/spending?flag=7001#flag-7001",
    );
    // Nothing to add: no flag, a fragment already, or a flag that is not an id.
    expect(signInLanding("/locations/101/spending?billId=9")).toBe("/locations/101/spending?billId=9");
    expect(signInLanding("/locations/101/spending?flag=7001#flag-7002")).toBe(
      "/locations/101/spending?flag=7001#flag-7002",
    );
    for (const flag of ["", "x", "7001x", "1e3", "-1", "1234567890123", "%3Cscript%3E", "7001%22onload"])
      expect(signInLanding(`/locations/101/spending?flag=${flag}`), flag).toBe(
        safeRedirect(`/locations/101/spending?flag=${flag}`),
      );
  });

  it("stays a safe redirect: another host or a bad path is the fallback, without a fragment", () => {
    for (const next of [
      "//evil.test/locations/1/spending?flag=1",
      "https://evil.test/?flag=1",
      "/\\evil.test?flag=1",
      "/%2f%2fevil.test?flag=1",
      "javascript:alert(1)//?flag=1",
      null,
      undefined,
      "",
    ])
      expect(signInLanding(next), String(next)).toBe("/");
    expect(signInLanding("//evil.test?flag=1", "/locations")).toBe("/locations");
  });
});
