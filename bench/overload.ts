/**
 * `npm run bench -- overload`: the signed-in dashboard under rising load with the production server's own load
 * shedding on (its defaults: SHED_MAX_IN_FLIGHT 64, SHED_MAX_EVENT_LOOP_DELAY_MS 150) and the embedded api, as
 * `npm start` runs them. For 2, 4, 8, … 128 users (autocannon connections, each asking again as soon as it is
 * answered) for BENCH_DURATION seconds each (default 15): pages/s answered, p50 and p99 latency, and how many
 * requests were shed (503). Prints the p99 at the highest load that sheds nothing. BENCH_OVERLOAD_LATENCY sets
 * the api's added latency (default 0).
 */
import autocannon from "autocannon";
import { startServer, table } from "./server";

const USERS = [2, 4, 8, 16, 32, 64, 128];

export async function overload() {
  const latency = Number(process.env.BENCH_OVERLOAD_LATENCY ?? 0);
  const duration = Number(process.env.BENCH_DURATION ?? 15);
  // Shedding as in production: the bench's server otherwise turns it off to measure capacity.
  const s = await startServer(latency, {
    env: { SHED_MAX_IN_FLIGHT: "64", SHED_MAX_EVENT_LOOP_DELAY_MS: "150" },
  });
  const rows: (string | number)[][] = [
    ["users", "pages/s (200)", "p50 ms", "p99 ms", "shed (503)", "other non-2xx", "errors"],
  ];
  let calm: { users: number; p99: number; rate: number } | undefined;
  let shedding = false;
  try {
    for (const users of USERS) {
      const r = await autocannon({
        url: `${s.url}/locations`,
        connections: users,
        duration,
        headers: { cookie: s.cookie },
      });
      const count = (code: string) => r.statusCodeStats?.[code]?.count ?? 0;
      const ok = count("200");
      const shed = count("503");
      const rate = ok / duration;
      rows.push([users, rate.toFixed(0), r.latency.p50, r.latency.p99, shed, r.non2xx - shed, r.errors]);
      // The last step before the first one that sheds (or fails) anything.
      if (shed > 0 || r.errors > 0 || r.non2xx > 0) shedding = true;
      else if (!shedding) calm = { users, p99: r.latency.p99, rate };
    }
  } finally {
    await s.stop();
  }
  console.log(
    `\n## Overload: the dashboard with production load shedding (api latency ${latency} ms, ${duration} s per step)\n`,
  );
  console.log(table(rows));
  console.log(
    calm
      ? `\nHighest load that sheds nothing: ${calm.users} users, ${calm.rate.toFixed(0)} pages/s, p99 ${calm.p99} ms.`
      : "\nEvery step shed some requests.",
  );
}
