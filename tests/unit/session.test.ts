import { describe, expect, it } from "vitest";
import {
  commitSession,
  deriveSessionKeys,
  getSession,
  newSession,
  openSessionData,
  sealSessionData,
} from "~/server/upstream/session.server";

const req = (cookie: string | null) =>
  new Request("http://app.test/", { headers: cookie ? { Cookie: cookie } : {} });
const cookieOf = (setCookie: string) => setCookie.split(";")[0];

describe("session reading (verified headers cached)", () => {
  it("reads the same data every time, and a flash read by one loader is still there for the next", async () => {
    const s = await newSession();
    s.set("apiSession", "tok-1");
    s.flash("toast", { kind: "success", message: "Saved" });
    const cookie = cookieOf(await commitSession(s));
    const first = await getSession(req(cookie));
    expect(first.get("apiSession")).toBe("tok-1");
    expect(first.get("toast")).toEqual({ kind: "success", message: "Saved" });
    expect(first.get("toast")).toBeUndefined();
    const second = await getSession(req(cookie));
    expect(second.get("apiSession")).toBe("tok-1");
    expect(second.get("toast")).toEqual({ kind: "success", message: "Saved" });
  });

  it("a change made to one session object never leaks into the next read", async () => {
    const s = await newSession();
    s.set("apiSession", "tok-2");
    const cookie = cookieOf(await commitSession(s));
    const first = await getSession(req(cookie));
    first.set("apiSession", "changed");
    first.set("vendorAlertDismissed", true);
    const second = await getSession(req(cookie));
    expect(second.get("apiSession")).toBe("tok-2");
    expect(second.get("vendorAlertDismissed")).toBeUndefined();
  });

  it("a tampered cookie gives an empty session, however often it is sent", async () => {
    const s = await newSession();
    s.set("apiSession", "tok-3");
    const cookie = cookieOf(await commitSession(s));
    const [name, value] = cookie.split("=");
    const tampered = `${name}=${value.slice(0, -4)}AAAA`;
    for (let i = 0; i < 2; i++) expect((await getSession(req(tampered))).get("apiSession")).toBeUndefined();
    expect((await getSession(req(null))).get("apiSession")).toBeUndefined();
  });
});

describe("session cookie encryption (ADR 0008)", () => {
  const user = {
    id: 4242,
    email: "dana@harborcoffee.test",
    firstName: "Dana",
    lastName: "Reyes",
    clientId: 1,
    client: { id: 1, name: "Harbor Coffee Co.", clientType: "SMB" as const },
    isStaff: false,
    isClientAdmin: true,
    isImpersonating: false,
    canImpersonate: false,
    isDemoMode: false,
  };
  const token = "upstream-token-Zq3x9vLk2PwR7tYb";

  it("the cookie value, decoded as base64, shows neither the email, the user id nor the upstream token", async () => {
    const s = await newSession();
    s.set("user", user);
    s.set("apiSession", token);
    const cookie = cookieOf(await commitSession(s));
    const value = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1));
    for (const text of [
      value,
      Buffer.from(value, "base64").toString("latin1"),
      Buffer.from(value.replace(/^v1\./, ""), "base64url").toString("latin1"),
    ]) {
      expect(text).not.toContain(user.email);
      expect(text).not.toContain("4242");
      expect(text).not.toContain(token);
      expect(text).not.toContain("Harbor");
    }
    // Yet the server reads it back.
    const back = await getSession(req(cookie));
    expect(back.get("user")).toEqual(user);
    expect(back.get("apiSession")).toBe(token);
  });

  it("the same data sealed twice gives two different values (a fresh IV each time)", async () => {
    const s = await newSession();
    s.set("apiSession", token);
    expect(cookieOf(await commitSession(s))).not.toBe(cookieOf(await commitSession(s)));
  });

  it("any changed byte of the ciphertext is no session", async () => {
    const s = await newSession();
    s.set("apiSession", token);
    const cookie = cookieOf(await commitSession(s));
    const eq = cookie.indexOf("=");
    const value = cookie.slice(eq + 1);
    const bytes = Buffer.from(value.slice(3), "base64url");
    for (const at of [0, 12, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const copy = Buffer.from(bytes);
      copy[at] ^= 0x01;
      const tampered = `${cookie.slice(0, eq)}=v1.${copy.toString("base64url")}`;
      expect((await getSession(req(tampered))).get("apiSession")).toBeUndefined();
    }
  });

  it("opens with the previous secret during a rotation, never under another cookie name, never once expired", () => {
    const [current, previous] = deriveSessionKeys(["a".repeat(32), "b".repeat(32)]);
    const old = sealSessionData({ apiSession: "t" }, previous, "__Host-session");
    expect(openSessionData(old, [current, previous], "__Host-session")).toEqual({ apiSession: "t" });
    expect(openSessionData(old, [current], "__Host-session")).toBeNull();
    expect(openSessionData(old, [current, previous], "session")).toBeNull();
    const expired = sealSessionData({ apiSession: "t" }, current, "__Host-session", -1);
    expect(openSessionData(expired, [current], "__Host-session")).toBeNull();
    expect(openSessionData("v1.!!!", [current], "__Host-session")).toBeNull();
  });
});
