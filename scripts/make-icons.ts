// `npm run icons`: draws the installable app's icons (issue 47) into public/icons/ with Chromium (the
// same browser the tests use, scripts/chromium.ts): the favicon's "U" on the accent colour at 192 and 512 px, and a
// maskable 512 px one whose letter stays inside the safe circle (80% of the side) that launchers crop to. Run it again
// after changing the mark; the PNGs are committed.
import { mkdirSync } from "node:fs";
import { chromium } from "playwright-core";
import { CHROMIUM_LAUNCH } from "./chromium.ts";

const ACCENT = "#ff9233"; // --accent in app/app.css
const ON_ACCENT = "#1a1206"; // --on-accent

function page(size: number, maskable: boolean): string {
  // A maskable icon fills the whole square (the launcher cuts its own shape); the letter keeps to the safe zone.
  const radius = maskable ? 0 : Math.round(size / 4);
  const font = Math.round(size * (maskable ? 0.46 : 0.62));
  return `<!doctype html><html><body style="margin:0;background:transparent">
    <div style="width:${size}px;height:${size}px;border-radius:${radius}px;background:${ACCENT};display:flex;
      align-items:center;justify-content:center;font:900 ${font}px Arial, 'DejaVu Sans', sans-serif;color:${ON_ACCENT}">U</div>
  </body></html>`;
}

const browser = await chromium.launch(CHROMIUM_LAUNCH);
try {
  mkdirSync("public/icons", { recursive: true });
  for (const [file, size, maskable] of [
    ["icon-192.png", 192, false],
    ["icon-512.png", 512, false],
    ["icon-maskable-512.png", 512, true],
  ] as const) {
    const tab = await browser.newPage({ viewport: { width: size, height: size } });
    await tab.setContent(page(size, maskable));
    await tab.screenshot({ path: `public/icons/${file}`, omitBackground: true });
    await tab.close();
  }
} finally {
  await browser.close();
}
