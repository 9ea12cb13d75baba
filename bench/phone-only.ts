// The phone profile alone (bench/phone.ts) against a server already running: to compare two builds served side by
// side in the same minutes. Usage: node bench/phone-only.ts http://localhost:PORT
import { benchPhone } from "./phone.ts";

const baseUrl = process.argv[2];
if (!baseUrl) throw new Error("usage: node bench/phone-only.ts http://localhost:PORT");
const result = await benchPhone({ baseUrl, stop: async () => {} });
console.log(
  JSON.stringify(
    result.pages.map((p) => ({ page: p.page, lcpP50: Math.round(p.lcpP50), lcpP95: Math.round(p.lcpP95), cls: p.cls })),
  ),
);
