/**
 * Imported before @arcadia-eng/connect-react (arcadia-connect.client.tsx, ADR 0024): the package's bundle ends
 * by assigning the global `regeneratorRuntime`, and where that throws (strict mode, no such global) by
 * `Function(...)`, which our policy (no 'unsafe-eval') refuses. With the global defined, the assignment succeeds.
 */
const g = globalThis as { regeneratorRuntime?: unknown };
if (!("regeneratorRuntime" in g)) g.regeneratorRuntime = undefined;
export {};
