import fs from "node:fs";
import { startManyStack } from "./many.ts";
const s = await startManyStack(286);
for (const [f, p] of [["300", "/locations"], ["300-p4", "/locations?page=4"], ["300-q", "/locations?q=oakland"]]) {
  const html = await (await fetch(`${s.url}${p}`, { headers: { cookie: s.cookie } })).text();
  fs.writeFileSync(`/tmp/many-${f}.html`, html);
}
await s.stop();
