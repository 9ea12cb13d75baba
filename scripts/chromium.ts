// How every tool here starts Chromium: Debian's /usr/bin/chromium (CHROMIUM_PATH to override), headless, with the
// flags this closed-network machine needs. The e2e run (playwright.config.ts), the benchmarks and
// `npm run check:first-visit` share it.
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};
