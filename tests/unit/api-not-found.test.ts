import { describe, expect, it } from "vitest";
import { notFoundPage } from "~/server/upstream/passthrough.server";

describe("an unknown /api/ path (rule api-unknown-404)", () => {
  it("a browser's 404 page says the page does not exist and links to the start page", () => {
    const html = notFoundPage("That page doesn't exist");
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("<h1>That page doesn't exist</h1>");
    expect(html).toContain('<a href="/">Go to the start page</a>');
    // No script and no inline style: the page passes the CSP without a nonce.
    expect(html).not.toMatch(/<script|style=/);
    expect(notFoundPage("<b>&")).toContain("<h1>&lt;b&gt;&amp;</h1>");
  });
});
