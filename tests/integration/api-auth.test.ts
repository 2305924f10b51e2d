import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApi } from "../../api/server";
import { nowMs } from "../../api/lib/clock";
import { call, latestMail, loginCookie, startTestApi } from "./api-harness";

let api: RunningApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

describe("login options", () => {
  it("lists what each account offers", async () => {
    expect((await call(api, "GET", "/users/dana@harborcoffee.test/login-options")).json).toEqual({
      items: ["password", "login_link", "login_code"],
      error: null,
    });
    expect((await call(api, "GET", "/users/sam@harborcoffee.test/login-options")).json.items).toEqual([
      "login_link",
      "login_code",
    ]);
    expect((await call(api, "GET", "/users/riley@greenwayhomes.test/login-options")).json.error).toBe("resi");
    expect((await call(api, "GET", "/users/jordan@metrotowers.test/login-options")).json.error).toBe("mycor");
    expect((await call(api, "GET", "/users/nobody@x.test/login-options")).status).toBe(404);
  });
});

describe("password login and sessions", () => {
  it("answers the user with an HttpOnly session cookie", async () => {
    const r = await call(api, "POST", "/auth/login", {
      body: { email: "DANA@harborcoffee.test", password: "demo-pass-2024" },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      email: "dana@harborcoffee.test",
      client: { name: "Harbor Coffee Co.", client_type: "SMB" },
      is_client_admin: true,
    });
    expect(r.res.headers.get("set-cookie")).toMatch(/^api_session=[\w-]{40,}; HttpOnly; Path=\//);
  });

  it("refuses a wrong password with 401 and a validation body for missing fields", async () => {
    expect(
      (
        await call(api, "POST", "/auth/login", {
          body: { email: "dana@harborcoffee.test", password: "nope" },
        })
      ).status,
    ).toBe(401);
    const v = await call(api, "POST", "/auth/login", { body: { email: "bad" } });
    expect(v.status).toBe(422);
    expect(v.json).toMatchObject({
      message: "Validation error",
      body_params: expect.arrayContaining([expect.objectContaining({ location: "email" })]),
    });
  });

  it("a session works until logout revokes it", async () => {
    const cookie = await loginCookie(api, "dana@harborcoffee.test");
    expect((await call(api, "GET", "/user", { cookie })).status).toBe(200);
    expect((await call(api, "POST", "/auth/logout", { cookie })).status).toBe(204);
    expect((await call(api, "GET", "/user", { cookie })).status).toBe(401);
  });

  it("scoped calls check ownership", async () => {
    const cookie = await loginCookie(api, "alex@mapledental.test");
    expect((await call(api, "GET", "/building/101/accounts", { cookie })).status).toBe(404);
    expect((await call(api, "GET", "/building/201/accounts", { cookie })).status).toBe(200);
    const buildings = await call(api, "GET", "/buildings", { cookie });
    expect((buildings.json.items as { id: number }[]).map((b) => b.id)).toEqual([201]);
  });

  it("partial access limits what a regular user sees", async () => {
    const r = await call(api, "POST", "/auth/login-code/request", {
      body: { email: "sam@harborcoffee.test" },
    });
    expect(r.status).toBe(204);
    const mail = await latestMail(api, "sam@harborcoffee.test");
    const login = await call(api, "POST", "/auth/login-code", {
      body: { email: "sam@harborcoffee.test", code: mail.code },
    });
    const cookie = login.res.headers.get("set-cookie")!.split(";")[0];
    const buildings = await call(api, "GET", "/buildings?size=75", { cookie });
    expect((buildings.json.items as { id: number }[]).map((b) => b.id)).toEqual([101, 102, 104, 106, 109]);
    expect((await call(api, "GET", "/building/103/accounts", { cookie })).status).toBe(404);
  });

  it("pages buildings", async () => {
    const cookie = await loginCookie(api, "dana@harborcoffee.test");
    const p2 = await call(api, "GET", "/buildings?size=5&page=2", { cookie });
    expect(p2.json).toMatchObject({ total: 14, page: 2, size: 5 });
    expect(p2.json.items).toHaveLength(5);
    expect((await call(api, "GET", "/buildings?size=0", { cookie })).status).toBe(422);
  });
});

describe("login codes", () => {
  it("are single use", async () => {
    await call(api, "POST", "/auth/login-code/request", { body: { email: "dana@harborcoffee.test" } });
    const { code } = await latestMail(api, "dana@harborcoffee.test");
    expect(code).toMatch(/^\d{6}$/);
    expect(
      (await call(api, "POST", "/auth/login-code", { body: { email: "dana@harborcoffee.test", code } }))
        .status,
    ).toBe(200);
    expect(
      (await call(api, "POST", "/auth/login-code", { body: { email: "dana@harborcoffee.test", code } }))
        .status,
    ).toBe(401);
  });

  it("lock after 5 wrong attempts", async () => {
    await call(api, "POST", "/auth/login-code/request", { body: { email: "alex@mapledental.test" } });
    const { code } = await latestMail(api, "alex@mapledental.test");
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) {
      expect(
        (
          await call(api, "POST", "/auth/login-code", {
            body: { email: "alex@mapledental.test", code: wrong },
          })
        ).status,
      ).toBe(401);
    }
    expect(
      (await call(api, "POST", "/auth/login-code", { body: { email: "alex@mapledental.test", code } }))
        .status,
    ).toBe(401);
  });

  it("do not reveal whether an account exists", async () => {
    expect(
      (await call(api, "POST", "/auth/login-code/request", { body: { email: "ghost@nowhere.test" } })).status,
    ).toBe(204);
    expect(
      (await call(api, "POST", "/auth/login-link/request", { body: { email: "ghost@nowhere.test" } })).status,
    ).toBe(204);
    expect(
      (await call(api, "POST", "/auth/password-reset/request", { body: { email: "ghost@nowhere.test" } }))
        .status,
    ).toBe(204);
  });
});

describe("login links", () => {
  it("carry next, work once, and are stored hashed", async () => {
    await call(api, "POST", "/auth/login-link/request", {
      body: { email: "dana@harborcoffee.test", next: "/settings" },
    });
    const { links } = await latestMail(api, "dana@harborcoffee.test");
    const url = new URL(links[0]);
    expect(url.origin).toBe("http://web.test");
    expect(url.pathname).toBe("/login/link");
    const token = url.searchParams.get("token")!;
    expect(token).toMatch(/^[\w-]{43}$/);
    const stored = api.db
      .prepare("SELECT token_hash FROM auth_tokens WHERE kind = 'login_link' ORDER BY id DESC LIMIT 1")
      .get() as { token_hash: string };
    expect(stored.token_hash).not.toBe(token);
    const first = await call(api, "POST", "/auth/login-link", { body: { token } });
    expect(first.status).toBe(200);
    expect(first.json.next).toBe("/settings");
    expect((await call(api, "POST", "/auth/login-link", { body: { token } })).status).toBe(401);
  });

  it("expire after 15 minutes", async () => {
    await call(api, "POST", "/auth/login-link/request", { body: { email: "dana@harborcoffee.test" } });
    const token = new URL((await latestMail(api, "dana@harborcoffee.test")).links[0]).searchParams.get(
      "token",
    )!;
    api.db
      .prepare("UPDATE auth_tokens SET expires_at = ? WHERE kind = 'login_link' AND used_at IS NULL")
      .run(new Date(nowMs() - 1000).toISOString());
    expect((await call(api, "POST", "/auth/login-link", { body: { token } })).status).toBe(401);
  });
});

describe("password reset", () => {
  it("validates the token, enforces the rules, changes the password and revokes sessions", async () => {
    const old = await loginCookie(api, "alex@mapledental.test");
    await call(api, "POST", "/auth/password-reset/request", { body: { email: "alex@mapledental.test" } });
    const token = new URL((await latestMail(api, "alex@mapledental.test")).links[0]).searchParams.get(
      "token",
    )!;
    expect((await call(api, "GET", `/user/password/token/validate?token=${token}`)).status).toBe(200);
    const bad = await call(api, "GET", "/user/password/token/validate?token=nope");
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/invalid/);
    const short = await call(api, "POST", "/user/password/reset", {
      body: { token, password: "short", confirm_password: "short" },
    });
    expect(short.json.body_params).toEqual([
      { location: "password", message: "Password must contain at least 8 characters" },
    ]);
    const mismatch = await call(api, "POST", "/user/password/reset", {
      body: { token, password: "new-pass-123", confirm_password: "other-pass" },
    });
    expect(mismatch.json.body_params).toEqual([
      { location: "confirm_password", message: "Passwords must match" },
    ]);
    const ok = await call(api, "POST", "/user/password/reset", {
      body: { token, password: "new-pass-123", confirm_password: "new-pass-123" },
    });
    expect(ok.json).toEqual({ message: "Password successfully changed" });
    expect((await call(api, "GET", "/user", { cookie: old })).status).toBe(401);
    expect(
      (
        await call(api, "POST", "/auth/login", {
          body: { email: "alex@mapledental.test", password: "new-pass-123" },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(api, "POST", "/user/password/reset", {
          body: { token, password: "again-123", confirm_password: "again-123" },
        })
      ).status,
    ).toBe(400);
  });
});

describe("error bodies", () => {
  it("unknown paths and malformed JSON follow the contract", async () => {
    expect((await call(api, "GET", "/no/such/thing")).json).toEqual({ message: "Not Found" });
    const res = await fetch(`${api.url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{oops",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: "Malformed JSON body" });
  });
});
