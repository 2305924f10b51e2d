import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The Dockerfile has never been built here (no base image can be pulled), so this test performs its steps on
 * this machine, reading them from the Dockerfile itself so the two stay in step:
 * - the build stage's production-only install (`npm prune --omit=dev`): node_modules is copied from this
 *   checkout (the packages package-lock.json does not mark dev-only; no registry needed) and pruned by npm,
 *   and `npm ls --omit=dev` must then find every production dependency;
 * - the runtime stage: exactly the paths of its `COPY --from=build` lines (the build artefacts of
 *   `npm run build`), its `ENV`, a data directory writable by the user, and nothing else writable;
 * - its `USER` (`node`, or `nobody` where this machine has no `node` user) through `setpriv`, its `CMD`;
 * then the server answers, `/readyz` is ready (the embedded api in its worker thread), the `HEALTHCHECK`
 * command passes, and SIGTERM ends it with exit code 0.
 */
const ROOT = path.resolve(".");
const dockerfile = fs.readFileSync(path.join(ROOT, "Dockerfile"), "utf8").replace(/\\\n\s*/g, " ");
const PORT = Number(process.env.SCALE_PORT_BASE ?? 4600) + 10;
const API_PORT = PORT + 1;

/** The runtime stage: the last FROM to the end. */
const runtime = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
const copies = [...runtime.matchAll(/^COPY --from=build \/app\/(\S+) \.\/(\S+)$/gm)].map((m) => ({
  from: m[1],
  to: m[2],
}));
const env = Object.fromEntries(
  [...runtime.matchAll(/^ENV (.+)$/gm)].flatMap((m) =>
    [...m[1].matchAll(/(\w+)=(\S+)/g)].map((kv) => [kv[1], kv[2]]),
  ),
);
const dockerUser = /^USER (\S+)$/m.exec(runtime)?.[1];
const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(runtime)?.[1] ?? "null") as string[] | null;
const healthcheck = /^HEALTHCHECK .*?CMD (.+)$/m.exec(runtime)?.[1];

const hasUser = (name: string) => spawnSync("id", ["-u", name]).status === 0;
const user = dockerUser && hasUser(dockerUser) ? dockerUser : "nobody";
const canSwitchUser = process.getuid?.() === 0 && spawnSync("sh", ["-c", "command -v setpriv"]).status === 0;
if (!canSwitchUser)
  console.warn("Dockerfile steps skipped: they need root and setpriv to start as a non-root user");

const idOf = (flag: string) => spawnSync("id", [flag, user], { encoding: "utf8" }).stdout.trim();
/** A command as the Dockerfile's user: setpriv execs it with that uid and gid, no supplementary groups. */
function asUser(args: string[]) {
  return {
    command: "setpriv",
    args: [`--reuid=${idOf("-u")}`, `--regid=${idOf("-g")}`, "--clear-groups", ...args],
  };
}

describe.skipIf(!canSwitchUser)("the Dockerfile's steps, on this machine", () => {
  let dir: string;
  let app: string;
  let child: ChildProcess;
  const logs: string[] = [];
  let runEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dockerfile-steps-"));
    fs.chmodSync(dir, 0o755);
    // Build stage: package.json + lock, production-only node_modules.
    const stage = path.join(dir, "build");
    fs.mkdirSync(path.join(stage, "node_modules"), { recursive: true });
    for (const f of ["package.json", "package-lock.json"])
      fs.copyFileSync(path.join(ROOT, f), path.join(stage, f));
    const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { dev?: boolean }>;
    };
    for (const [key, meta] of Object.entries(lock.packages)) {
      if (!key.startsWith("node_modules/") || key.slice(13).includes("node_modules/") || meta.dev) continue;
      const source = path.join(ROOT, key);
      if (fs.existsSync(source))
        fs.cpSync(source, path.join(stage, key), { recursive: true, verbatimSymlinks: true });
    }
    const npm = (args: string[]) =>
      spawnSync("npm", [...args, "--offline", "--no-audit", "--no-fund"], { cwd: stage, encoding: "utf8" });
    const prune = npm(["prune", "--omit=dev"]);
    expect(prune.status, prune.stderr).toBe(0);
    const ls = npm(["ls", "--omit=dev", "--all"]);
    expect(ls.status, `${ls.stdout}\n${ls.stderr}`).toBe(0);

    // Runtime stage: the COPY --from=build lines; build artefacts from this checkout's `npm run build`.
    app = path.join(dir, "app");
    fs.mkdirSync(app);
    for (const c of copies) {
      // From the build stage (moved: one copy of node_modules is enough), or this checkout's build output.
      if (["package.json", "node_modules"].includes(c.from))
        fs.renameSync(path.join(stage, c.from), path.join(app, c.to));
      else
        fs.cpSync(path.join(ROOT, c.from), path.join(app, c.to), { recursive: true, verbatimSymlinks: true });
    }
    // RUN mkdir -p /app/data && chown node:node /app/data; the rest read-only (owned by root, no write bit).
    spawnSync("chmod", ["-R", "a-w", app]);
    fs.chmodSync(app, 0o755);
    fs.mkdirSync(path.join(app, "data"));
    spawnSync("chown", [`${user}:`, path.join(app, "data")]);
    fs.chmodSync(app, 0o555);

    runEnv = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: "/nonexistent",
      ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace(/^\/app(?=\/|$)/, app)])),
      PORT: String(PORT),
      API_PORT: String(API_PORT),
      SESSION_SECRET: "dockerfile-steps-secret-0123456789abcdef0123",
      LOG_LEVEL: "warn",
    } as unknown as NodeJS.ProcessEnv;
    const run = asUser(cmd!);
    child = spawn(run.command, run.args, {
      cwd: app,
      env: runEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (d) => logs.push(String(d)));
    child.stderr!.on("data", (d) => logs.push(String(d)));
    const deadline = Date.now() + 90_000;
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${PORT}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (child.exitCode !== null) throw new Error(`the server exited: ${logs.join("")}`);
      if (Date.now() > deadline) throw new Error(`the server did not become ready: ${logs.join("")}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 240_000);

  afterAll(() => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    if (dir) {
      spawnSync("chmod", ["-R", "u+w", dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("the Dockerfile ships the build artefacts, production dependencies only, as a non-root user", () => {
    expect(copies.map((c) => c.to)).toEqual(
      expect.arrayContaining(["package.json", "node_modules", "build", "dist", "public"]),
    );
    expect(env.NODE_ENV).toBe("production");
    expect(dockerUser).toBeDefined();
    expect(dockerUser).not.toBe("root");
    expect(cmd).toEqual(["node", "dist/server.js"]);
    // No dev dependency made it into the image's node_modules.
    for (const dev of ["vitest", "@remix-run/dev", "@playwright/test", "esbuild", "eslint", "tsx"])
      expect(fs.existsSync(path.join(app, "node_modules", dev)), dev).toBe(false);
  });

  it("runs as that user with a read-only app directory, and answers", async () => {
    const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
    const uid = Number(idOf("-u"));
    // setpriv execs node: the process itself runs with the user's uid.
    expect(new RegExp(`^Uid:\\s+${uid}\\s`, "m").test(status)).toBe(true);
    const w = asUser(["node", "-e", "require('fs').writeFileSync('dist/x.js', 'x')"]);
    const write = spawnSync(w.command, w.args, { cwd: app, encoding: "utf8" });
    expect(write.status).not.toBe(0);
    expect(write.stderr).toMatch(/EACCES/);
    // The embedded api's database in the writable data directory.
    expect(fs.existsSync(path.join(app, "data", "api.sqlite"))).toBe(true);

    const login = await fetch(`http://127.0.0.1:${PORT}/login`);
    expect(login.status).toBe(200);
    expect(await login.text()).toContain("</html>");
    const ready = await fetch(`http://127.0.0.1:${PORT}/readyz`);
    expect(await ready.json()).toEqual({
      status: "ready",
      shuttingDown: false,
      checks: { api: "ok", redis: "skipped" },
    });
  });

  it("the HEALTHCHECK command passes (liveness), and SIGTERM ends the server with exit code 0", async () => {
    expect(healthcheck).toContain("/healthz");
    const h = asUser(["sh", "-c", healthcheck!]);
    const check = spawnSync(h.command, h.args, { cwd: app, env: runEnv, encoding: "utf8" });
    expect(check.status, check.stderr).toBe(0);
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 30_000);
});
