/** The part of fontkit (a dependency of pdfkit, without its own types) the certificate fonts use. */
declare module "fontkit" {
  export interface Glyph {
    id: number;
    advanceWidth: number;
  }
  export interface GlyphRun {
    glyphs: Glyph[];
    advanceWidth: number;
  }
  export interface Font {
    postscriptName: string;
    familyName: string;
    unitsPerEm: number;
    ascent: number;
    descent: number;
    hasGlyphForCodePoint(codePoint: number): boolean;
    glyphForCodePoint(codePoint: number): Glyph;
    layout(text: string): GlyphRun;
  }
  export interface FontCollection {
    fonts: Font[];
    getFont(postscriptName: string): Font | null;
  }
  export function create(buffer: Buffer | Uint8Array, postscriptName?: string): Font | FontCollection;
}
