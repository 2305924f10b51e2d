import { Agent, request, type Dispatcher } from "undici";

/**
 * How the api client talks HTTP to the upstream api: undici's `request` on a keep-alive Agent of its own, not the
 * global `fetch`. Node 20's fetch is built on the same undici, but wraps every call in a WHATWG Request, Headers,
 * a Response and a ReadableStream body, with an AbortSignal that follows ours: on this machine it cost about
 * 4× the CPU of `request` per call (200 against 55 µs, client and server together, for a small JSON answer;
 * profile and figures in the README), and every page makes one to seven such calls.
 *
 * What the api client reads of an answer is `UpstreamAnswer`, which a fetch `Response` also is: the unit tests
 * still hand the client a fake `fetch`, and file downloads (`raw`), which pass a body on as a web stream, still
 * use the real one.
 */
export type UpstreamAnswer = {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null; getSetCookie(): string[] };
  text(): Promise<string>;
};

export type UpstreamInit = {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
};

/** An answer as the transport gives it: `dispose` frees its connection if nobody read its body. */
export type UpstreamFetch = (
  url: string,
  init: UpstreamInit,
) => Promise<UpstreamAnswer & { dispose?(): void }>;

let agent: Agent | undefined;
const dispatcher = () => (agent ??= new Agent({ keepAliveTimeout: 4_000 }));

class AnswerHeaders {
  constructor(private readonly raw: Record<string, string | string[] | undefined>) {}
  /** As `Headers.get`: a repeated header's values joined with ", ". */
  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(", ") : value;
  }
  getSetCookie(): string[] {
    const value = this.raw["set-cookie"];
    if (value === undefined) return [];
    return Array.isArray(value) ? value : [value];
  }
}

class Answer implements UpstreamAnswer {
  readonly ok: boolean;
  readonly headers: AnswerHeaders;
  private read = false;

  constructor(
    readonly status: number,
    headers: Dispatcher.ResponseData["headers"],
    private readonly body: Dispatcher.ResponseData["body"],
  ) {
    this.ok = status >= 200 && status < 300;
    this.headers = new AnswerHeaders(headers);
  }

  text(): Promise<string> {
    if (this.read) return Promise.reject(new TypeError("Body is unusable: it has already been read"));
    this.read = true;
    return this.body.text();
  }

  /** An answer whose body nobody read (a 204, a redirect) gives its connection back at once. */
  dispose() {
    if (this.read) return;
    this.read = true;
    this.body.dump().catch(() => {});
  }
}

/** One upstream call; redirects are not followed (as `redirect: "manual"`). */
export const upstreamFetch: UpstreamFetch = async (url, init) => {
  const res = await request(url, {
    method: init.method as Dispatcher.HttpMethod,
    headers: init.headers,
    body: init.body,
    signal: init.signal,
    dispatcher: dispatcher(),
  });
  return new Answer(res.statusCode, res.headers, res.body);
};
