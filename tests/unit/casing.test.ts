import { describe, expect, it } from "vitest";
import { keysToCamel, keysToSnake, toCamel, toQueryString, toSnake } from "~/server/upstream/casing";

describe("casing", () => {
  it("converts names both ways", () => {
    expect(toSnake("coolSetpointF")).toBe("cool_setpoint_f");
    expect(toSnake("arcadiaCredentialsExist")).toBe("arcadia_credentials_exist");
    expect(toSnake("already_snake")).toBe("already_snake");
    expect(toCamel("cool_setpoint_f")).toBe("coolSetpointF");
    expect(toCamel("address_line1")).toBe("addressLine1");
    expect(toCamel("x-no-convert")).toBe("xNoConvert");
  });

  it("converts nested keys but never values", () => {
    const wire = {
      building_id: 1,
      address: { address_line1: "1 Main St" },
      items: [{ is_reachable: true, device_name: "snake_value" }],
    };
    const camel = keysToCamel(wire);
    expect(camel).toEqual({
      buildingId: 1,
      address: { addressLine1: "1 Main St" },
      items: [{ isReachable: true, deviceName: "snake_value" }],
    });
    expect(keysToSnake(camel)).toEqual(wire);
  });

  it("keeps null, dates and primitives", () => {
    expect(keysToCamel(null)).toBeNull();
    expect(keysToCamel("a_b")).toBe("a_b");
    const d = new Date(0);
    expect(keysToSnake({ someDate: d })).toEqual({ some_date: d });
  });

  it("sends only non-empty query parameters, snake_case, arrays repeated", () => {
    expect(
      toQueryString({
        startDate: "2026-01-01",
        locationSearch: "",
        page: 0,
        empty: null,
        missing: undefined,
      }),
    ).toBe("?start_date=2026-01-01&page=0");
    expect(toQueryString({ sortBy: ["end_time:DESC", "building_address:DESC"] })).toBe(
      "?sort_by=end_time%3ADESC&sort_by=building_address%3ADESC",
    );
    expect(toQueryString({})).toBe("");
    expect(toQueryString(undefined)).toBe("");
  });
});

describe("casing of hostile keys", () => {
  it("keeps an own __proto__ key as data, never as the prototype", () => {
    const parsed = JSON.parse('{"__proto__": {"is_admin": true}, "first_name": "Dana"}');
    const out = keysToCamel<Record<string, unknown>>(parsed);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { isAdmin?: boolean }).isAdmin).toBeUndefined();
    expect(out.firstName).toBe("Dana");
    const snake = keysToSnake<Record<string, unknown>>(JSON.parse('{"__proto__": {"isAdmin": true}}'));
    expect(Object.getPrototypeOf(snake)).toBe(Object.prototype);
    expect(Object.keys(snake)).toEqual(["__proto__"]);
    expect((snake as { is_admin?: boolean }).is_admin).toBeUndefined();
  });

  it("converts the same key the same way every time (cached)", () => {
    const a = keysToCamel<{ unit_price: number }[]>([{ unit_price: 1 }, { unit_price: 2 }]);
    expect(a).toEqual([{ unitPrice: 1 }, { unitPrice: 2 }]);
    expect(keysToSnake({ unitPrice: 3, nested: [{ billId: 4 }] })).toEqual({
      unit_price: 3,
      nested: [{ bill_id: 4 }],
    });
  });

  it("converts each row of an array by its own keys, whatever the row before had", () => {
    const rows = JSON.parse(
      '[{"a_b": 1, "c_d": {"e_f": 2}}, {"a_b": 3, "c_d": null}, {"c_d": 4, "a_b": 5}, {"x_y": 6}, {"a_b": 7, "__proto__": {"is_admin": true}}, 8, [{"g_h": 9}]]',
    ) as unknown[];
    const out = keysToCamel<unknown[]>(rows);
    expect(out).toEqual([
      { aB: 1, cD: { eF: 2 } },
      { aB: 3, cD: null },
      { cD: 4, aB: 5 },
      { xY: 6 },
      expect.objectContaining({ aB: 7 }),
      8,
      [{ gH: 9 }],
    ]);
    expect(Object.keys(out[2] as object)).toEqual(["cD", "aB"]);
    const withProto = out[4] as Record<string, unknown>;
    expect(Object.getPrototypeOf(withProto)).toBe(Object.prototype);
    expect(Object.keys(withProto)).toEqual(["aB", "Proto__"]);
    expect((withProto as { isAdmin?: boolean }).isAdmin).toBeUndefined();
  });

  it("converts nested objects of every row by their own keys, though rows share one shape", () => {
    const rows = JSON.parse(
      '[{"a_b": {"c_d": 1, "e_f": [{"g_h": 2}]}}, {"a_b": {"e_f": [{"i_j": 3}, {"g_h": 4}], "c_d": 5}}, {"a_b": {"k_l": 6}}, {"a_b": [{"c_d": 7}]}]',
    ) as unknown[];
    expect(keysToCamel(rows)).toEqual([
      { aB: { cD: 1, eF: [{ gH: 2 }] } },
      { aB: { eF: [{ iJ: 3 }, { gH: 4 }], cD: 5 } },
      { aB: { kL: 6 } },
      { aB: [{ cD: 7 }] },
    ]);
    expect(keysToSnake({ items: [{ aB: { cD: 1 } }, { aB: { eF: 2 } }] })).toEqual({
      items: [{ a_b: { c_d: 1 } }, { a_b: { e_f: 2 } }],
    });
  });
});
