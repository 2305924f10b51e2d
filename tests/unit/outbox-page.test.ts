import { describe, expect, it } from "vitest";
import { escapeHtml, framedHtml, linkify, linksOf } from "../../api/mail/outbox-page";

describe("the outbox page's text and links", () => {
  it("escapes everything and makes only http(s) URLs links, without the sentence's full stop", () => {
    expect(linkify('<b>x</b> see https://a.test/p?q=1&r=2. or javascript:alert(1) "ok"')).toBe(
      '&lt;b&gt;x&lt;/b&gt; see <a href="https://a.test/p?q=1&amp;r=2" target="_blank" rel="noopener noreferrer">https://a.test/p?q=1&amp;r=2</a>. or javascript:alert(1) &quot;ok&quot;',
    );
    expect(escapeHtml(`<'&">`)).toBe("&lt;&#39;&amp;&quot;&gt;");
  });

  it("lists the written links, then the HTML's and the text's, once each, http(s) only", () => {
    expect(
      linksOf({
        links_json: JSON.stringify(["http://web.test/a"]),
        html: '<a href="http://web.test/a">A</a><a href="https://web.test/b?x=1&amp;y=2">B</a><a href="javascript:x">C</a>',
        text: "http://web.test/a and http://web.test/c.",
      }),
    ).toEqual(["http://web.test/a", "https://web.test/b?x=1&y=2", "http://web.test/c"]);
  });

  it("opens the framed email's links in a tab of their own", () => {
    expect(
      framedHtml('<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body></body></html>'),
    ).toBe(
      '<!doctype html><html lang="en"><head><base target="_blank"><meta charset="utf-8"></head><body></body></html>',
    );
    expect(framedHtml('<html lang="en"><body></body></html>')).toBe(
      '<html lang="en"><base target="_blank"><body></body></html>',
    );
    expect(framedHtml("<p>x</p>")).toBe('<base target="_blank"><p>x</p>');
  });
});
