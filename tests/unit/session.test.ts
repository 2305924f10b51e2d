import { describe, expect, it } from "vitest";
import { commitSession, getSession, newSession } from "~/server/session.server";

const req = (cookie: string | null) => new Request("http://app.test/", { headers: cookie ? { Cookie: cookie } : {} });
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
