import { describe, expect, it } from "vitest";
import { refusedBeforeRemix } from "~/server/http/remix-handler.server";

const body = (text: string) => Buffer.from(text);

describe("refusedBeforeRemix", () => {
  it("passes pages, forms, and an empty post without a type", async () => {
    expect(await refusedBeforeRemix("GET", "/login?email=a", undefined, undefined)).toBeNull();
    expect(
      await refusedBeforeRemix("POST", "/login", "application/x-www-form-urlencoded", body("a=1")),
    ).toBeNull();
    expect(
      await refusedBeforeRemix(
        "POST",
        "/login.data",
        "Application/X-WWW-Form-Urlencoded; charset=UTF-8",
        body(""),
      ),
    ).toBeNull();
    const multipart = '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n';
    expect(
      await refusedBeforeRemix("POST", "/x", "multipart/form-data; boundary=b", body(multipart)),
    ).toBeNull();
    expect(await refusedBeforeRemix("POST", "/logout", undefined, body(""))).toBeNull();
  });

  it("refuses ?_data requests, which Remix serves but reports as an error", async () => {
    expect(await refusedBeforeRemix("GET", "/login?_data=routes/login", undefined, undefined)).toMatchObject({
      status: 400,
    });
  });

  it("refuses a body that is not a form (415) and a multipart body that does not parse (400)", async () => {
    expect(await refusedBeforeRemix("POST", "/login", "text/plain", body("a=1"))).toMatchObject({
      status: 415,
    });
    expect(await refusedBeforeRemix("POST", "/login", "application/json", body("{}"))).toMatchObject({
      status: 415,
    });
    expect(await refusedBeforeRemix("POST", "/login", undefined, body("a=1"))).toMatchObject({ status: 415 });
    expect(
      await refusedBeforeRemix("POST", "/login", "multipart/form-data; boundary=x", body("garbage")),
    ).toMatchObject({ status: 400 });
  });
});
