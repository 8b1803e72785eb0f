/** Rich-text images stay only inline (data:) or on our own site, however the address is spelt. */
import { describe, expect, it } from "vitest";
import { isOwnImage, sanitizeRichText } from "../../src/server/richtext/sanitize";

describe("rich-text images", () => {
  it("keeps paths on our site and drops every spelling of another host", () => {
    for (const own of ["/Backend/Public/logo.png", "/Backend/x.png?a=1#b", "images/a.png", "/.//x/y.png"])
      expect(isOwnImage(own), own).toBe(true);
    for (const remote of [
      "https://t.example.com/p.gif",
      "HTTP://t.example.com/p.gif",
      " https://t.example.com/p",
      "//t.example.com/p.gif",
      "/\\t.example.com/p.gif",
      "\\\\t.example.com\\p",
      "/\t/t.example.com/p",
      "http:t.example.com/p",
      "https:/t.example.com/p",
      "javascript:alert(1)",
      "ftp://t.example.com/p",
    ]) {
      expect(isOwnImage(remote), remote).toBe(false);
    }
  });

  it("drops the remote image element and keeps inline raster images", () => {
    const png = "data:image/png;base64,iVBORw0KGgo=";
    expect(
      sanitizeRichText(`<p>a<img src="https://t.example.com/p.gif">b<img src="${png}" alt="图"><img src="/Backend/x.png"></p>`),
    ).toBe(`<p>ab<img src="${png}" alt="图" /><img src="/Backend/x.png" /></p>`);
    expect(sanitizeRichText(`<img src="data:image/svg+xml;base64,PHN2Zz4=">`)).toBe("");
  });
});
