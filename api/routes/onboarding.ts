import * as clock from "../lib/clock";
import { z } from "zod";
import { getAuth, sessionRouter, requireOwnClient, ownClientRoute } from "../lib/auth";
import { type ApiDeps, notFound, parse, route } from "../lib/http";
import { pathId } from "../lib/ids";

type StepRow = { id: number; name: string; status: string };

const patchBody = z.object({ status: z.enum(["not_started", "in_progress", "complete"]) });
const taskBody = z.object({
  client_id: z.number().int().positive(),
  onboarding_step: z.number().int().min(0).max(5),
});

/** Onboarding steps and the onboarding task codes (rule onboarding-task-codes, docs/rules.md; docs/api/accounts.md). */
export function onboardingRoutes(deps: ApiDeps) {
  const { r, db, auth } = sessionRouter(deps);

  r.get(
    "/onboarding-steps/:clientId",
    auth,
    ownClientRoute((clientId, req, res) => {
      const steps = db
        .prepare("SELECT id, name, status FROM onboarding_steps WHERE client_id = ? ORDER BY position, id")
        .all(clientId) as StepRow[];
      res.json({ steps });
    }),
  );

  r.patch(
    "/onboarding-steps/:clientId/:stepId",
    auth,
    ownClientRoute((clientId, req, res) => {
      const { status } = parse(patchBody, req.body);
      const step = db
        .prepare("SELECT id FROM onboarding_steps WHERE id = ? AND client_id = ?")
        .get(pathId(req.params.stepId), clientId) as { id: number } | undefined;
      if (!step) throw notFound();
      db.prepare("UPDATE onboarding_steps SET status = ?, updated_at = ? WHERE id = ?").run(
        status,
        clock.now().toISOString(),
        step.id,
      );
      res.json(db.prepare("SELECT id, name, status FROM onboarding_steps WHERE id = ?").get(step.id));
    }),
  );

  r.put(
    "/update_arcadia_vitally_task",
    auth,
    route((req, res) => {
      const a = getAuth(res);
      const body = parse(taskBody, req.body);
      const clientId = requireOwnClient(a, body.client_id);
      db.prepare(
        "INSERT INTO onboarding_task_events (client_id, user_id, onboarding_step, created_at) VALUES (?, ?, ?, ?)",
      ).run(clientId, a.user.id, body.onboarding_step, clock.now().toISOString());
      res.status(204).end();
    }),
  );

  return r;
}
