import type { RequestHandler, Response } from "express";
import type { ApiDeps } from "./http";

/**
 * Test-hook fault points (ENABLE_TEST_HOOKS only; mounted by api/app.ts, armed through POST
 * /dev/faults/after-commit, api/routes/dev.ts): the next write matching `method` and `path` commits as usual,
 * then, instead of answering, the api dies (`exit`: SIGKILL to itself, as a crash or an OOM kill would) or
 * drops the connection (`drop`). The caller cannot know whether its write took effect: the window the fault
 * suite otherwise hits only by luck. One arming fires once, on an accepted (2xx) answer.
 */
export type AfterCommitFault = { method?: string; path: RegExp; mode: "exit" | "drop" };

const armed = new WeakMap<ApiDeps["db"], AfterCommitFault[]>();

const listOf = (deps: ApiDeps) => {
  let list = armed.get(deps.db);
  if (!list) armed.set(deps.db, (list = []));
  return list;
};

export function armAfterCommit(deps: ApiDeps, fault: AfterCommitFault) {
  listOf(deps).push(fault);
}

/** Forgets every armed fault (POST /dev/reset: a test that failed before its fault fired leaves none behind). */
export function disarmAll(deps: ApiDeps) {
  listOf(deps).length = 0;
}

/** The middleware in front of every route (before any answer can be written). */
export function afterCommitFaults(deps: ApiDeps): RequestHandler {
  return (req, res, next) => {
    const list = listOf(deps);
    // req.path is relative to /api here (the middleware is mounted on the api router).
    const fault = list.find((f) => (!f.method || f.method === req.method) && f.path.test(req.path));
    if (!fault || req.method === "GET") return next();
    const end = res.end;
    res.end = function (this: Response, ...args: unknown[]) {
      const at = list.indexOf(fault);
      if (at < 0 || res.statusCode < 200 || res.statusCode >= 300)
        return end.apply(res, args as Parameters<Response["end"]>);
      list.splice(at, 1);
      deps.log("test hook: fault after commit", { method: req.method, path: req.path, mode: fault.mode });
      if (fault.mode === "exit") process.kill(process.pid, "SIGKILL");
      else req.socket.destroy();
      return res;
    } as Response["end"];
    next();
  };
}
