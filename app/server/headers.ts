import type { HeadersFunction } from "@remix-run/node";

/** Route `headers`: a 429 from the action keeps its Retry-After on the document response. */
export const forwardRetryAfter: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const out = new Headers();
  const retry = actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
  if (retry) out.set("Retry-After", retry);
  return out;
};
