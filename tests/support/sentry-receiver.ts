import http from "node:http";
import zlib from "node:zlib";

/** One item of a Sentry envelope: its header (type …) and its payload (JSON when it parses, else text). */
export type EnvelopeItem = { header: Record<string, unknown>; payload: unknown; raw: string };
export type Envelope = { header: Record<string, unknown>; items: EnvelopeItem[]; raw: string };

/**
 * Splits an envelope (https://develop.sentry.dev/sdk/envelopes/): a JSON header line, then items, each a JSON
 * header line and a payload of `length` bytes when the header says so, else up to the next newline.
 */
export function parseEnvelope(body: Buffer): Envelope {
  let pos = 0;
  const line = () => {
    const end = body.indexOf(0x0a, pos);
    const stop = end === -1 ? body.length : end;
    const text = body.subarray(pos, stop).toString("utf8");
    pos = stop + 1;
    return text;
  };
  const header = JSON.parse(line()) as Record<string, unknown>;
  const items: EnvelopeItem[] = [];
  while (pos < body.length) {
    const h = line();
    if (!h.trim()) continue;
    const itemHeader = JSON.parse(h) as Record<string, unknown>;
    let raw: string;
    if (typeof itemHeader.length === "number") {
      raw = body.subarray(pos, pos + itemHeader.length).toString("utf8");
      pos += itemHeader.length + 1;
    } else raw = line();
    let payload: unknown = raw;
    try {
      payload = JSON.parse(raw);
    } catch {
      /* an attachment or other non-JSON payload */
    }
    items.push({ header: itemHeader, payload, raw });
  }
  return { header, items, raw: body.toString("utf8") };
}

/**
 * A local receiver of the Sentry envelope protocol on 127.0.0.1: the DSN `http://public@127.0.0.1:<port>/1`
 * makes the SDK post every envelope here (`POST /api/1/envelope/`), gzip or not.
 */
export async function startSentryReceiver() {
  const envelopes: Envelope[] = [];
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body = Buffer.concat(chunks);
      if (req.headers["content-encoding"] === "gzip") body = zlib.gunzipSync(body);
      if (req.method === "POST" && /^\/api\/1\/envelope\/?/.test(req.url ?? "")) {
        envelopes.push(parseEnvelope(body));
        for (const w of waiters.splice(0)) w();
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;

  /** Every event payload received so far (items of type "event"). */
  const events = () =>
    envelopes.flatMap((e) =>
      e.items.filter((i) => i.header.type === "event").map((i) => i.payload as SentryEvent),
    );

  return {
    dsn: `http://public@127.0.0.1:${port}/1`,
    envelopes,
    events,
    /** Waits (generously: a loaded machine) for an event that matches; throws after `timeoutMs`. */
    async waitForEvent(match: (e: SentryEvent) => boolean, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events().find(match);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`no matching event; received: ${JSON.stringify(events().map(summary))}`);
        await new Promise<void>((r) => {
          const t = setTimeout(r, Math.min(left, 250));
          waiters.push(() => {
            clearTimeout(t);
            r();
          });
        });
      }
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export type SentryEvent = {
  event_id: string;
  release?: string;
  environment?: string;
  message?: string;
  tags?: Record<string, string>;
  user?: Record<string, unknown>;
  request?: Record<string, unknown>;
  exception?: { values?: { type?: string; value?: string }[] };
};

const summary = (e: SentryEvent) => ({ tags: e.tags, exception: e.exception?.values?.map((v) => v.value) });
