/**
 * Rich text (HTML from the editors) is cleaned on the server before it is stored: an
 * allow-list of formatting, lists, tables, links (http, https, mailto, relative) and
 * images: inline data:image of raster types, or a path on our own site (/Backend/…).
 * Images from other sites are dropped: a remote image tells its host who read the page
 * and when (a tracking pixel). Scripts, event handlers, iframes,
 * forms and style values outside a strict list (expression(), url(), …) are removed.
 */
import sanitizeHtml from "sanitize-html";

const COLOR = [
  /^#[0-9a-f]{3,8}$/i,
  /^rgba?\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*(,\s*(0|1|0?\.\d+)\s*)?\)$/i,
  /^[a-z]{3,20}$/i,
];
const LENGTH = [/^\d{1,4}(\.\d{1,3})?(px|em|rem|pt|%)$/];
/** Two made-up bases: an address that resolves onto both has no host of its own. */
const BASES = ["https://a.invalid/", "http://b.invalid/"];

/**
 * Whether an image address stays on our own site: a path, no host of its own (any other
 * site, absolute or "//host", is not). Resolved like a browser would (backslashes, tabs,
 * dot segments), so no spelling of the address reaches another host.
 */
export function isOwnImage(src: string): boolean {
  try {
    const [a, b] = BASES.map((base) => new URL(src, base));
    return `${a.origin}/` === BASES[0] && `${b.origin}/` === BASES[1];
  } catch {
    return false;
  }
}

/** Raster image types only: an SVG may carry script. */
export const DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp|bmp);base64,[a-z0-9+/=\s]+$/i;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "br",
    "hr",
    "div",
    "span",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "del",
    "ins",
    "sub",
    "sup",
    "mark",
    "small",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "pre",
    "code",
    "ul",
    "ol",
    "li",
    "a",
    "img",
    "figure",
    "figcaption",
    "table",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "th",
    "td",
    "caption",
  ],
  allowedAttributes: {
    "*": ["style"],
    a: ["href", "title", "target", "rel"],
    img: ["src", "alt", "title", "width", "height"],
    ol: ["start"],
    td: ["colspan", "rowspan"],
    th: ["colspan", "rowspan"],
  },
  allowedStyles: {
    "*": {
      color: COLOR,
      "background-color": COLOR,
      "text-align": [/^(left|right|center|justify)$/],
      "font-size": LENGTH,
      "font-weight": [/^(normal|bold|bolder|lighter|[1-9]00)$/],
      "font-style": [/^(normal|italic)$/],
      "text-decoration": [/^(none|underline|line-through)$/],
      "text-indent": LENGTH,
      "padding-left": LENGTH,
      "line-height": [/^\d{1,2}(\.\d{1,2})?$/, ...LENGTH],
      width: LENGTH,
      height: LENGTH,
    },
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["data"] },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    a: (tagName, attribs) => {
      const out: sanitizeHtml.Attributes = { ...attribs };
      if (out.target && out.target !== "_blank") delete out.target;
      // A link that opens a new window cannot reach back into our page.
      out.rel = "noopener noreferrer";
      return { tagName, attribs: out };
    },
    img: (tagName, attribs) => {
      const out: sanitizeHtml.Attributes = { ...attribs };
      if (out.src && /^\s*data:/i.test(out.src)) {
        if (!DATA_IMAGE.test(out.src.trim())) delete out.src;
      } else if (out.src && !isOwnImage(out.src)) {
        delete out.src;
      }
      return { tagName, attribs: out };
    },
  },
  // An image whose address was refused is dropped altogether.
  exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", "#39": "'" };

function decodeNumeric(e: string): string | undefined {
  const n = /^#x[0-9a-f]+$/i.test(e) ? parseInt(e.slice(2), 16) : /^#\d+$/.test(e) ? Number(e.slice(1)) : NaN;
  return Number.isInteger(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : undefined;
}

/** The text of sanitised HTML, whitespace collapsed (summaries, emptiness checks). */
export function plainText(html: string, max = Infinity): string {
  const text = sanitizeHtml(html.replace(/<\/(p|div|li|h[1-6]|tr|blockquote)>|<br\s*\/?>/gi, "$& "), {
    allowedTags: [],
    allowedAttributes: {},
  })
    .replace(/&(#?\w+);/g, (m, e: string) => ENTITIES[e] ?? decodeNumeric(e) ?? m)
    .replace(/\s+/g, " ")
    .trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** True when sanitised HTML shows nothing: no text and no image. */
export const isBlankRichText = (html: string) => !plainText(html) && !/<img\s/i.test(html);
