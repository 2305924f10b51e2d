import { describe, expect, it } from "vitest";
import { plainHttpNotice } from "~/features/auth/auth";

/** Sign-in over plain HTTP: the Secure session cookie is dropped, so the login page says why beforehand. */
describe("plainHttpNotice", () => {
  it("says nothing over HTTPS, or when the cookie is not Secure (development)", () => {
    expect(plainHttpNotice(new URL("https://energy.example.test/login"), true)).toBeNull();
    expect(plainHttpNotice(new URL("http://energy.example.test/login"), false)).toBeNull();
  });

  it("over plain HTTP on a network address: sign-in cannot work, and where to go instead", () => {
    const notice = plainHttpNotice(
      new URL("http://10.0.0.5:3000/login?email=a%40b.test"),
      true,
      "https://energy.example.test/",
    );
    expect(notice).toMatch(/^Sign-in needs a secure connection\./);
    expect(notice).toContain("Open https://energy.example.test/login instead.");
  });

  it("never names the address the request asked for (its Host is anyone's to set)", () => {
    for (const host of ["evil.example", "10.0.0.5:3000", "localhost:3000"]) {
      const notice = plainHttpNotice(new URL(`http://${host}/login`), true, undefined);
      expect(notice).not.toContain(host);
      expect(notice).not.toBeNull();
    }
    expect(plainHttpNotice(new URL("http://evil.example/login"), true)).toContain("https:// address");
  });

  it("on this machine: most browsers sign in, text browsers do not", () => {
    for (const host of ["localhost:3000", "127.0.0.1:3000", "[::1]:3000"]) {
      const notice = plainHttpNotice(new URL(`http://${host}/login`), true);
      expect(notice).toMatch(/^This page was opened over plain HTTP\./);
      expect(notice).toContain("lynx and w3m");
      expect(notice).not.toContain(host);
    }
  });

  it("a name that only starts like localhost is a network address", () => {
    expect(plainHttpNotice(new URL("http://localhost.example.test/login"), true)).toMatch(/^Sign-in needs/);
  });
});
