import { describe, expect, it } from "vitest";
import { renderEmail } from "../../api/mail/layout";
import { loginCodeEmail, loginLinkEmail } from "../../api/mail/sign-in";
import { anchorsOf, codeOf, decodeEntities } from "../support/mail-reading";

/**
 * How the e2e suite reads a received email (tests/support/mail-reading.ts): the links a person can tap are the
 * HTML part's anchors, in reading order, with the words they show; the code is the one the text shows.
 */
const BASE = "https://app.energyops.example";

describe("reading a received email", () => {
  it("the login link email: its one link is the button, with its words and its whole address", async () => {
    const href = `${BASE}/login/link?token=a&b&next=%2Fsettings`;
    const { html } = await renderEmail(loginLinkEmail(BASE, href, 15));
    expect(anchorsOf(html)).toEqual([{ href, label: "Log in to EnergyOps" }]);
  });

  it("the login code email: the code from the text, the way back to the login page from the HTML", async () => {
    const { html, text } = await renderEmail(loginCodeEmail(BASE, "048213", 10));
    expect(codeOf(text)).toBe("048213");
    expect(anchorsOf(html)).toEqual([{ href: `${BASE}/login`, label: "Open the login page" }]);
  });

  it("anchors in document order, tags and comments out of their words, entities decoded", () => {
    const html =
      '<p><a href="https://x.test/a?x=1&amp;y=2" style="c">Bills at <b>Café</b><!-- c --> &amp; more</a>' +
      "<a name='top'>no href</a><a class=l href='https://x.test/b'>It&#x27;s\n  here</a></p>";
    expect(anchorsOf(html)).toEqual([
      { href: "https://x.test/a?x=1&y=2", label: "Bills at Café & more" },
      { href: "https://x.test/b", label: "It's here" },
    ]);
    expect(decodeEntities("&lt;&#60;&#x3C;&quot;&nbsp;")).toBe('<<<" ');
    expect(codeOf("No code here, 123456 alone.")).toBeNull();
  });
});
