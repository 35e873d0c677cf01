/**
 * SVG to PNG with resvg (`@resvg/resvg-js`: a Rust renderer shipped as prebuilt binaries in its npm
 * platform packages, no browser and no system libraries), drawing text with the Noto Sans files of
 * `@expo-google-fonts/noto-sans` (SIL Open Font License) and no system fonts, so a chart looks the
 * same on every machine. Hand-written rasterizing would be far more code and far less faithful.
 */
import { createRequire } from "node:module";
import { Resvg } from "@resvg/resvg-js";

const require = createRequire(import.meta.url);

/** The font files the charts use (regular and bold), found in their npm package. */
export const CHART_FONT_FILES = [
  require.resolve("@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf"),
  require.resolve("@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf"),
];

/** Renders an SVG document to PNG bytes at its own size. */
export function renderPng(svg: string): Buffer {
  const resvg = new Resvg(svg, {
    fitTo: { mode: "original" },
    font: { fontFiles: CHART_FONT_FILES, loadSystemFonts: false, defaultFontFamily: "Noto Sans" },
  });
  return resvg.render().asPng();
}
