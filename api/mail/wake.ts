import type { DB } from "../db";

/**
 * The delivery loop of each database (api/mail/delivery.ts) registers here; `sendMail` calls `mailWritten`
 * so a new row is sent at once instead of at the next tick. Keyed by database: a test process may run
 * several apis side by side.
 */
const wakers = new WeakMap<DB, () => void>();

export function onMailWritten(db: DB, wake: () => void) {
  wakers.set(db, wake);
  return () => {
    if (wakers.get(db) === wake) wakers.delete(db);
  };
}

/**
 * Wakes the loop on the next turn of the event loop, not now: `sendMail` may run inside a transaction, whose
 * row the loop can only see once it is committed.
 */
export function mailWritten(db: DB) {
  const wake = wakers.get(db);
  if (wake) setImmediate(wake);
}
