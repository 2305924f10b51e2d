import { createRequire } from "node:module";
import path from "node:path";
import { build } from "esbuild";
import { ESLint } from "eslint";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { WEB_SERVER } from "../../shared/build-output.mjs";

/**
 * The import layering that eslint.config.js enforces in app/, api/ and shared/ (docs/architecture.md, ADR 0020,
 * ADR 0022), checked against the real config: each snippet is linted as if it were a file in the named folder, and
 * each forbidden import must be reported by `no-restricted-imports`, each allowed one not. Files need not exist:
 * the path picks the rules.
 */
const root = path.resolve(__dirname, "../..");
const eslint = new ESLint({ cwd: root });

/** The `no-restricted-imports` messages for `code` linted as `filePath`. */
async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}
const importOf = (spec: string) => `import { x } from "${spec}";\nexport const y = x;\n`;

/** [file, import specifier, what the message must tell to do]. */
const FORBIDDEN: [string, string, RegExp][] = [
  // a feature takes no component or stylesheet of another feature, by alias or by a relative path
  [
    "app/features/prospect/components/start-step.tsx",
    "~/features/accounts/components/utility-picker",
    /app\/ui|route pass/,
  ],
  [
    "app/features/prospect/prospect.ts",
    "~/features/accounts/accounts.css",
    /never its components or stylesheet/,
  ],
  ["app/features/thermostats/components/card.tsx", "../../locations/components/location-heading", /~\//],
  ["app/features/thermostats/thermostats.ts", "../locations/locations", /~\//],
  // nothing imports a route
  ["app/features/bills/bills.ts", "~/routes/_app", /feature/],
  ["app/routes/login.tsx", "./_index", /another route module/],
  ["app/routes/login.tsx", "~/routes/_app", /feature/],
  // ui, lib and server sit below the features
  [
    "app/server/upstream/upstream.server.ts",
    "~/features/demo-mode/demo-mode.server",
    /move the shared piece down/,
  ],
  ["app/server/idempotency.server.ts", "../features/demo-mode/demo-mode.server", /~\//],
  ["app/server/auth/session.server.ts", "../../features/auth/sign-in.server", /~\//],
  ["app/ui/pill.tsx", "~/features/locations/locations", /prop/],
  ["app/ui/pill.tsx", "~/server/upstream/session.server", /loader/],
  ["app/lib/dates.ts", "~/ui/pill", /nothing of app/],
  ["app/lib/dates.ts", "~/server/csv", /nothing of app/],
  ["app/lib/dates.ts", "../server/csv", /nothing of app/],
  // app/ and api/ never import each other; shared/ imports neither
  ["app/routes/login.tsx", "../../api/embedded", /api-client|shared/],
  ["app/root.tsx", "../api/embedded", /shared\//],
  ["app/server/config.server.ts", "../../api/lib/ids", /shared\//],
  ["api/routes/bills.ts", "../../app/features/demo-mode/demo-mode", /shared\//],
  ["api/routes/locations.ts", "~/server/csv", /shared\//],
  ["api/db/seed/core.ts", "../../../app/lib/ids", /shared\//],
  // a bare path from the repository's root (no `baseUrl` resolves it, and the rules still refuse it)
  ["api/routes/bills.ts", "app/lib/ids", /shared\//],
  ["app/server/config.server.ts", "api/lib/ids", /shared\//],
  ["shared/csv.ts", "app/lib/ids", /imports nothing/],
  ["shared/csv.ts", "../app/lib/ids", /imports nothing/],
  ["shared/csv.ts", "../api/lib/ids", /imports nothing/],
  ["shared/csv.ts", "~/lib/ids", /imports nothing/],
  // api/: wiring → routes → mail → domain → lib → db; simulators only from the wiring; migrations import nothing
  ["api/mail/jobs.ts", "../routes/bills", /api\/domain or api\/lib/],
  ["api/domain/energy-advisor.ts", "../routes/core", /only.*api\/routes\/index\.ts|router/],
  ["api/db/seed/compliance.ts", "../../routes/dev", /router/],
  ["api/routes/locations.ts", "./auth", /only api\/routes\/index\.ts mounts them/],
  ["api/routes/auth.ts", "../simulators/mailer", /only the api's wiring/],
  ["api/mail/jobs.ts", "../simulators/mailer", /only the api's wiring/],
  ["api/routes/grid.ts", "../simulators/grid", /only the api's wiring/],
  ["api/lib/buildings.ts", "../simulators", /only the api's wiring/],
  ["api/simulators/thermostats.ts", "../routes/thermostats", /router/],
  ["api/simulators/utility-provider.ts", "../mail/mailer", /api\/mail sits above/],
  ["api/domain/notifications.ts", "../mail/layout", /api\/mail sits above/],
  ["api/lib/auth.ts", "../mail/tokens", /api\/mail sits above/],
  ["api/db/seed/core.ts", "../../mail/layout", /api\/mail sits above/],
  ["api/lib/buildings.ts", "../domain/energy-advisor", /below api\/domain/],
  ["api/lib/http.ts", "../db/seed", /demo data/],
  ["api/domain/schedule-compliance.ts", "../db/seed/context", /demo data/],
  ["api/mail/jobs.ts", "../db/seed", /demo data/],
  ["api/db/index.ts", "./seed", /demo data/],
  ["api/db/index.ts", "../lib/clock", /bottom layer/],
  ["api/db/rows.ts", "../domain/notifications", /bottom layer/],
  ["api/db/migrations/041_history_daily.ts", "../../domain/schedule-compliance", /frozen history/],
  ["api/db/migrations/050_accounts.ts", "./041_history_daily", /frozen history/],
  ["api/db/migrations/050_accounts.ts", "../../../shared/csv", /frozen history/],
  ["api/db/migrations/050_accounts.ts", "app/lib/ids", /frozen history/],
  ["api/db/migrations/index.ts", "../../lib/clock", /lists the migrations/],
  // the api's wiring (api/*.ts) sits above every layer: `../app` from a route is api/app.ts, not app/
  ["api/routes/locations.ts", "../app", /wiring/],
  ["api/lib/http.ts", "../config", /wiring/],
  ["api/mail/scheduler.ts", "../server", /wiring/],
  ["api/db/seed/index.ts", "../../config", /wiring/],
  // a bare path from the repository's root, inside api/
  ["api/routes/bills.ts", "api/lib/ids", /relative path/],
  ["api/lib/auth.ts", "shared/sign-in-access", /relative path/],
  // a path not written as it resolves: a `.` or `..` after its start would walk around every rule above
  ["app/ui/pill.tsx", "~/ui/../features/locations/locations", /as it resolves/],
  ["app/routes/login.tsx", "~/../api/server", /as it resolves/],
  ["app/server/csv.ts", "~/./features/demo-mode/demo-mode", /as it resolves/],
  ["app/features/prospect/prospect.ts", "./../accounts/components/utility-picker", /as it resolves/],
  ["app/server/csv.ts", "../../shared/../api/lib/ids", /as it resolves/],
  ["app/lib/dates.ts", "./zoned/..", /as it resolves/],
  ["api/lib/buildings.ts", "../lib/../routes/locations", /as it resolves/],
  ["api/routes/bills.ts", "../../shared/../app/lib/ids", /as it resolves/],
  ["shared/csv.ts", "./x/../../app/lib/ids", /as it resolves/],
];

const ALLOWED: [string, string][] = [
  // another feature's top-level modules: its rules and strings, its server steps
  ["app/features/prospect/prospect.server.ts", "~/features/accounts/accounts.server"],
  ["app/features/prospect/prospect.ts", "~/features/accounts/utility-connect"],
  ["app/features/prospect/components/coned-step.tsx", "~/features/accounts/accounts"],
  // a feature's own files
  ["app/features/prospect/components/start-step.tsx", "../prospect"],
  ["app/features/prospect/components/start-step.tsx", "./coned-step"],
  ["app/features/prospect/components/start-step.tsx", "~/features/prospect/components/coned-step"],
  ["app/features/accounts/components/connect-flow.tsx", "../accounts.css"],
  ["app/features/accounts/components/connect-flow.tsx", "~/ui/states"],
  // routes take from every layer below
  ["app/routes/free-bill-health-check.tsx", "~/features/accounts/components/utility-picker"],
  ["app/routes/free-bill-health-check.tsx", "~/features/accounts/accounts.css"],
  ["app/routes/login.tsx", "~/server/upstream/guards.server"],
  ["app/routes/login.tsx", "@remix-run/node"],
  ["app/root.tsx", "./server/upstream/session.server"],
  // the bottom layer: ui, lib and server
  ["app/server/upstream/upstream.server.ts", "./demo-mode"],
  ["app/server/idempotency.server.ts", "~/ui/submission-id"],
  ["app/server/upstream/upstream.server.ts", "~/lib/ids"],
  ["app/server/csv.ts", "../../shared/csv"],
  ["app/server/auth/session.server.ts", "../cookies.server"],
  ["app/features/usage/chart-data.ts", "../../../shared/csv"],
  ["app/ui/link-tabs.tsx", "./use-hydrated"],
  ["app/ui/pill.tsx", "~/lib/decimal"],
  ["app/lib/zoned.ts", "./dates"],
  ["app/lib/zoned.ts", "~/lib/dates"],
  // api/ and shared/
  ["api/routes/locations.ts", "../../shared/csv"],
  ["api/routes/locations.ts", "../lib/http"],
  ["api/server.ts", "./simulators"],
  ["api/server.ts", "./db/seed"],
  ["api/app.ts", "./routes"],
  ["api/cli/db-reset.ts", "../db/seed"],
  ["api/routes/index.ts", "./auth"],
  ["api/routes/bills.ts", "../mail/jobs"],
  ["api/routes/grid.ts", "../domain/grid-dispatches"],
  ["api/routes/dev.ts", "../db/seed"],
  ["api/routes/thermostats.ts", "../db/rows"],
  ["api/mail/jobs.ts", "./mailer"],
  ["api/mail/jobs.ts", "../domain/override-report"],
  ["api/mail/jobs.ts", "../lib/buildings"],
  ["api/domain/energy-advisor.ts", "../lib/accounts"],
  ["api/domain/schedule-compliance.ts", "../db"],
  ["api/db/seed/compliance.ts", "../../domain/schedule-compliance"],
  ["api/db/seed/context.ts", ".."],
  ["api/simulators/thermostats.ts", "../db/rows"],
  ["api/simulators/index.ts", "./thermostats"],
  ["api/lib/buildings.ts", "./auth"],
  ["api/lib/auth.ts", "../../shared/sign-in-access"],
  ["api/db/index.ts", "./migrations"],
  ["api/db/index.ts", "better-sqlite3"],
  ["api/db/migrations/index.ts", "./041_history_daily"],
  ["api/db/migrations/041_history_daily.ts", "node:crypto"],
  ["shared/csv.ts", "csv-stringify/sync"],
  ["shared/csv.ts", "./demo-stand-ins"],
  // the embedded launcher, outside app/
  ["server.ts", "./api/embedded"],
  // written as they resolve: climbs only at the start, dots inside a name
  ["app/features/usage/chart-data.ts", "../../../shared/build-output.mjs"],
  ["app/server/stylesheets.server.ts", "../../shared/build-output.mjs"],
  ["app/ui/pill.tsx", "~/ui/..x"],
  ["app/server/ops/metrics.server.ts", "~/server/ops/logger.server"],
];

describe("import boundaries (eslint.config.js)", () => {
  it("reports an UNSAFE_ export of Remix anywhere, and lets its public API through", async () => {
    for (const file of ["app/ui/critical-css.tsx", "app/routes/login.tsx", "api/app.ts"]) {
      const unsafe = await restricted(
        file,
        `import { UNSAFE_RemixContext } from "@remix-run/react";\nexport const y = UNSAFE_RemixContext;\n`,
      );
      expect(unsafe, file).toHaveLength(1);
      expect(unsafe[0]).toMatch(/public API/);
      expect(
        await restricted(
          file,
          `import { useMatches } from "@remix-run/react";\nexport const y = useMatches;\n`,
        ),
        file,
      ).toEqual([]);
    }
  });

  for (const [file, spec, advice] of FORBIDDEN) {
    it(`reports ${file} importing "${spec}"`, async () => {
      const messages = await restricted(file, importOf(spec));
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatch(advice);
    });
  }
  for (const [file, spec] of ALLOWED) {
    it(`allows ${file} importing "${spec}"`, async () => {
      expect(await restricted(file, importOf(spec))).toEqual([]);
    });
  }

  it("checks type-only imports and re-exports too", async () => {
    const from = "~/features/locations/locations";
    expect(
      await restricted("app/ui/pill.tsx", `import type { X } from "${from}";\nexport type Y = X;\n`),
    ).toHaveLength(1);
    expect(await restricted("app/ui/pill.tsx", `export { x } from "${from}";\n`)).toHaveLength(1);
  });

  it("refuses re-exports: no barrels in app/, api/ or shared/", async () => {
    const reexports = async (filePath: string, code: string) => {
      const [result] = await eslint.lintText(code, { filePath });
      return result.messages.filter((m) => m.ruleId === "no-restricted-syntax").map((m) => m.message);
    };
    for (const file of [
      "app/ui/page-shell.ts",
      "app/route-kit.server.ts",
      "api/lib/index.ts",
      "shared/index.ts",
    ]) {
      expect(await reexports(file, `export * from "./a";\n`)).toEqual([expect.stringMatching(/defines it/)]);
      expect(await reexports(file, `export { x } from "./a";\n`)).toHaveLength(1);
      expect(await reexports(file, `export type { X } from "./a";\n`)).toHaveLength(1);
    }
    // what a file defines, and imports, stay allowed; tests may re-export (fixtures)
    expect(await reexports("app/ui/pill.tsx", `import { a } from "./a";\nexport const b = a;\n`)).toEqual([]);
    expect(await reexports("tests/support/x.ts", `export * from "./a";\n`)).toEqual([]);
  });

  it("applies to every feature folder on disk, new ones included", async () => {
    // the rule is generated per folder of app/features: any of them refuses another's component
    for (const [file, spec] of [
      ["app/features/usage/components/chart.tsx", "~/features/compliance/components/report-parts"],
      ["app/features/compliance/components/chart.tsx", "~/features/usage/components/energy-chart"],
      ["app/features/grid-services/grid-services.ts", "~/features/thermostats/components/control-room"],
    ])
      expect(await restricted(file, importOf(spec))).toHaveLength(1);
  });
});

/**
 * The walk-around that `"baseUrl": "."` in tsconfig.json opened: `import … from "app/lib/ids"` in api/ read as
 * a package to the linter's patterns but resolved to the file for tsc, tsx and esbuild. Without baseUrl it is
 * refused by the linter and resolves nowhere: not for the typechecker, not in the server's bundle
 * (scripts/build-server.mjs), not for Node at run time. Add the baseUrl back and the last two tests fail.
 */
describe("a bare app/… import in api/ (no baseUrl)", () => {
  const planted = "api/routes/bills.ts";
  const spec = "app/lib/ids";
  const code = `import { parseId } from "${spec}";\nconsole.log(parseId);\n`;

  it("is refused by the linter", async () => {
    expect(await restricted(planted, code)).toEqual([expect.stringMatching(/never imports app\//)]);
  });

  it("does not resolve for the typechecker (tsconfig.json as tsc reads it)", () => {
    const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.json"), undefined, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    })!;
    const resolve = (specifier: string, from: string) =>
      ts.resolveModuleName(specifier, path.join(root, from), parsed.options, ts.sys).resolvedModule
        ?.resolvedFileName;
    expect(parsed.options.baseUrl).toBeUndefined();
    expect(resolve(spec, planted)).toBeUndefined();
    // the resolver does find what exists: the alias inside app/, and the same file by a relative path
    expect(resolve("~/lib/ids", "app/root.tsx")).toBe(path.join(root, "app/lib/ids.ts"));
    expect(resolve("../../app/lib/ids", planted)).toBe(path.join(root, "app/lib/ids.ts"));
  });

  it("does not resolve in the server's bundle, nor for Node at run time", async () => {
    // scripts/build-server.mjs's options: a bare specifier it cannot map to a file stays a package import
    const bundle = (packages?: "external") =>
      build({
        stdin: {
          contents: code,
          resolveDir: path.join(root, "api/routes"),
          sourcefile: "bills.ts",
          loader: "ts",
        },
        absWorkingDir: root,
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        packages,
        write: false,
        logLevel: "silent",
      });
    const { outputFiles } = await bundle("external");
    expect(outputFiles[0].text).toContain(`from "${spec}"`);
    // …which Node looks up as the package "app", and there is none
    expect(() => createRequire(path.join(root, WEB_SERVER)).resolve(spec)).toThrow(/Cannot find module/);
    // bundling everything, esbuild finds no file for it either
    await expect(bundle()).rejects.toThrow(/Could not resolve "app\/lib\/ids"/);
  });
});
