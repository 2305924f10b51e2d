import { describe, expect, it } from "vitest";
import {
  checkFormBody,
  checkUrlEncoded,
  fieldNameWithinBounds,
  multipartBoundary,
} from "~/server/http/body-limit.server";

const limits = { maxBytes: 1024, maxFields: 5, maxFieldNameLength: 10, maxFieldIndex: 999, maxFieldDepth: 8 };

describe("fieldNameWithinBounds", () => {
  const bounds = { maxFieldIndex: 999, maxFieldDepth: 8 };
  it("accepts the names forms post, and indices up to the bound", () => {
    for (const name of ["email", "building", "x[]", "x[0]", "x[999]", "x[0000999]", "a.b.c", "a[1].b[2]", ""])
      expect(fieldNameWithinBounds(name, bounds), name).toBe(true);
    expect(fieldNameWithinBounds("a[1][2][3][4][5][6][7][8]", bounds)).toBe(true);
    expect(fieldNameWithinBounds("a.b.c.d.e.f.g.h.i", bounds)).toBe(true);
  });
  it("refuses an index over the bound, however it is written", () => {
    for (const name of ["x[1000]", "x[999999999]", "x[0001000]", "a.b[1000]", `x[${"9".repeat(400)}]`])
      expect(fieldNameWithinBounds(name, bounds), name).toBe(false);
  });
  it("refuses nesting over the bound, brackets and dots counted together", () => {
    expect(fieldNameWithinBounds("a[1][2][3][4][5][6][7][8][9]", bounds)).toBe(false);
    expect(fieldNameWithinBounds("a.b.c.d.e.f.g.h.i.j", bounds)).toBe(false);
    expect(fieldNameWithinBounds("a.b[1].c[2].d[3].e[4].f", bounds)).toBe(false);
    expect(fieldNameWithinBounds("[[[[[[[[[", bounds)).toBe(false);
  });
});

describe("checkUrlEncoded", () => {
  it("counts fields, empty pairs aside", () => {
    expect(checkUrlEncoded("a=1&b=2&&c=3&d&e=", limits)).toEqual({ ok: true });
    expect(checkUrlEncoded("a=1&b=2&c=3&d=4&e=5&f=6", limits)).toMatchObject({ ok: false, status: 413 });
    expect(checkUrlEncoded("", limits)).toEqual({ ok: true });
  });
  it("measures a name decoded, and a name without a value", () => {
    expect(checkUrlEncoded(`${"%41".repeat(10)}=1`, limits)).toEqual({ ok: true });
    expect(checkUrlEncoded(`${"a".repeat(11)}=1`, limits)).toMatchObject({
      ok: false,
      reason: "form field name too long",
    });
    expect(checkUrlEncoded(`x=1&${"a".repeat(11)}`, limits)).toMatchObject({ ok: false });
    // The = of a later pair does not end an earlier name.
    expect(checkUrlEncoded(`${"a".repeat(11)}&b=1`, limits)).toMatchObject({ ok: false });
  });
});

describe("checkUrlEncoded: name bounds", () => {
  it("refuses with 400 an index or nesting over the bounds, encoded or not", () => {
    const refused = { ok: false, status: 400 };
    const limits = { maxFields: 5, maxFieldNameLength: 200, maxFieldIndex: 999, maxFieldDepth: 8 };
    expect(checkUrlEncoded("x[999]=1&intent=password", limits)).toEqual({ ok: true });
    expect(checkUrlEncoded("x[999999999]=1&intent=password", limits)).toMatchObject(refused);
    expect(checkUrlEncoded("x%5B1000%5D=1", limits)).toMatchObject(refused);
    expect(checkUrlEncoded("x%5b%31%30%30%30%5d=1", limits)).toMatchObject(refused);
    expect(checkUrlEncoded("a=1&x[1000]", limits)).toMatchObject(refused);
    expect(checkUrlEncoded("a%2Eb.c.d=1", limits)).toEqual({ ok: true });
  });
});

describe("checkFormBody", () => {
  const part = (name: string) => `--XyZ\r\nContent-Disposition: form-data; name="${name}"\r\n\r\nv\r\n`;
  it("multipart: counts parts and checks names", () => {
    const type = "multipart/form-data; boundary=XyZ";
    expect(multipartBoundary(type)).toBe("XyZ");
    expect(multipartBoundary('multipart/form-data; boundary="a b"')).toBe("a b");
    expect(checkFormBody(Buffer.from(`${part("a").repeat(5)}--XyZ--\r\n`), type, limits)).toEqual({
      ok: true,
    });
    expect(checkFormBody(Buffer.from(`${part("a").repeat(6)}--XyZ--\r\n`), type, limits)).toMatchObject({
      ok: false,
      status: 413,
    });
    expect(checkFormBody(Buffer.from(`${part("a".repeat(11))}--XyZ--\r\n`), type, limits)).toMatchObject({
      ok: false,
      status: 413,
    });
    expect(checkFormBody(Buffer.from("x"), "multipart/form-data", limits)).toMatchObject({
      ok: false,
      status: 400,
    });
  });
  it("multipart: refuses with 400 a name over the bounds, quoted or not", () => {
    const type = "multipart/form-data; boundary=XyZ";
    const wide = { ...limits, maxFieldNameLength: 200 };
    const body = (disposition: string) =>
      Buffer.from(`--XyZ\r\nContent-Disposition: form-data; ${disposition}\r\n\r\nv\r\n--XyZ--\r\n`);
    expect(checkFormBody(body('name="x[999]"'), type, wide)).toEqual({ ok: true });
    expect(checkFormBody(body('name="x[1000000]"'), type, wide)).toMatchObject({ ok: false, status: 400 });
    expect(checkFormBody(body("name=x[1000000]"), type, wide)).toMatchObject({ ok: false, status: 400 });
    expect(checkFormBody(body('filename="a"; name="a.b.c.d.e.f.g.h.i.j"'), type, wide)).toMatchObject({
      ok: false,
      status: 400,
    });
  });
  it("leaves other content types to the byte limit", () => {
    expect(checkFormBody(Buffer.from("a&".repeat(100)), "application/json", limits)).toEqual({ ok: true });
    expect(
      checkFormBody(
        Buffer.from("a&".repeat(100)),
        "Application/X-WWW-Form-Urlencoded; charset=UTF-8",
        limits,
      ),
    ).toMatchObject({ ok: false });
  });
});
