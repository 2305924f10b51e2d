/**
 * Preloaded by bench/profile.ts (`node --import`): a CPU profile of the warm process only. The first SIGUSR2
 * starts V8's sampling profiler, the second stops it and writes the profile to PROFILE_FILE (through a temporary
 * name, so the file exists only once it is whole). Start-up, sign-in and the warm-up stay out of the figures.
 */
import fs from "node:fs";
import { Session } from "node:inspector";

const session = new Session();
session.connect();
let running = false;
const post = (method, params) =>
  new Promise((resolve, reject) =>
    session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))),
  );

process.on("SIGUSR2", async () => {
  if (!running) {
    running = true;
    await post("Profiler.enable");
    await post("Profiler.setSamplingInterval", { interval: 500 });
    await post("Profiler.start");
    return;
  }
  running = false;
  const { profile } = await post("Profiler.stop");
  fs.writeFileSync(`${process.env.PROFILE_FILE}.partial`, JSON.stringify(profile));
  fs.renameSync(`${process.env.PROFILE_FILE}.partial`, process.env.PROFILE_FILE);
});
