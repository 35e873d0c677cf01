/**
 * SVG to PNG with resvg (`@resvg/resvg-js`: a Rust renderer shipped as prebuilt binaries in its npm
 * platform packages, no browser and no system libraries), drawing text with the Noto Sans files of
 * `@expo-google-fonts/noto-sans` (SIL Open Font License) and no system fonts, so a chart looks the
 * same on every machine. Hand-written rasterizing would be far more code and far less faithful.
 */
import { createRequire } from "node:module";
import type * as ResvgModule from "@resvg/resvg-js";

const require = createRequire(import.meta.url);

/** The font files the charts use (regular and bold), found in their npm package. */
export const CHART_FONT_FILES = [
  require.resolve("@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf"),
  require.resolve("@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf"),
];

/**
 * Renders an SVG document to PNG bytes at its own size. resvg is required here, at the first chart
 * (Node keeps it after): most processes draw none for a long while, and loading its native module
 * at start cost 41 ms and 6.8 MB of resident memory on the bench machine.
 */
export function renderPng(svg: string): Buffer {
  const { Resvg } = require("@resvg/resvg-js") as typeof ResvgModule;
  const renderer = new Resvg(svg, {
    fitTo: { mode: "original" },
    font: { fontFiles: CHART_FONT_FILES, loadSystemFonts: false, defaultFontFamily: "Noto Sans" },
  });
  return renderer.render().asPng();
}
