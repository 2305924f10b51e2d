import { describe, expect, it } from "vitest";
import { parseAuthority, requestAuthority } from "~/server/http/host-header.server";

describe("parseAuthority", () => {
  it("accepts a name, an IPv4 or IPv6 address, with a port up to 65535", () => {
    expect(parseAuthority("localhost")).toEqual({ hostname: "localhost", port: "" });
    expect(parseAuthority("App.Example.test:8443")).toEqual({ hostname: "app.example.test", port: "8443" });
    expect(parseAuthority("127.0.0.1:65535")).toEqual({ hostname: "127.0.0.1", port: "65535" });
    expect(parseAuthority("[::1]:3000")).toEqual({ hostname: "[::1]", port: "3000" });
  });

  it("refuses what a URL cannot be built from", () => {
    for (const value of [
      undefined,
      "",
      "a b",
      "h:99999",
      "h:65536",
      "h:1:2",
      "h:",
      ":80",
      "a/b",
      "a@b",
      "[::1",
      "[zz]",
      "h:-1",
      "é.test",
      "a".repeat(300),
    ])
      expect(parseAuthority(value), String(value)).toBeNull();
  });
});

describe("requestAuthority", () => {
  const untrusted = { trusted: false, encrypted: false };
  const trusted = { trusted: true, encrypted: false };

  it("reads the Host header, and nothing forwarded from an untrusted peer", () => {
    expect(
      requestAuthority(
        { host: "app.test", "x-forwarded-host": "x:99999", "x-forwarded-proto": "gopher" },
        untrusted,
      ),
    ).toEqual({ ok: true, protocol: "http", authority: "app.test" });
    expect(requestAuthority({ host: "app.test" }, { trusted: false, encrypted: true })).toMatchObject({
      protocol: "https",
    });
    expect(requestAuthority({ host: "a b" }, untrusted)).toMatchObject({ ok: false });
    expect(requestAuthority({}, untrusted)).toMatchObject({ ok: false });
  });

  it("from a trusted proxy, uses the first forwarded host and protocol, when well formed", () => {
    expect(
      requestAuthority(
        { host: "10.0.0.2:3000", "x-forwarded-host": "app.test, other", "x-forwarded-proto": "HTTPS,http" },
        trusted,
      ),
    ).toEqual({ ok: true, protocol: "https", authority: "app.test" });
    expect(requestAuthority({ host: "10.0.0.2", "x-forwarded-host": "x:99999" }, trusted)).toMatchObject({
      ok: false,
    });
    expect(requestAuthority({ host: "10.0.0.2", "x-forwarded-proto": "javascript" }, trusted)).toMatchObject({
      ok: false,
    });
    expect(requestAuthority({ host: "10.0.0.2", "x-forwarded-host": "" }, trusted)).toMatchObject({
      ok: true,
      authority: "10.0.0.2",
    });
  });
});
