// Following a ladder's change feed (GET /ladders/{ladder}/feed?follow=true, JSON lines) and
// resuming from the last cursor after the stream breaks (docs/sync.md).
import type { FeedItemOut } from "./generated/types.gen.js";

export interface FollowFeedOptions {
  /** The service's address, e.g. `http://127.0.0.1:8000`. */
  baseUrl: string;
  ladder: string;
  /** The admin token or an API key with `read`. */
  token?: string;
  /** The cursor of the last item you applied (0: from the start). */
  after?: number;
  /** Stops following: the generator returns. */
  signal?: AbortSignal;
  /** Reconnect when nothing, not even a heartbeat, came for this long (the service sends
   * one at least every 10 s). */
  idleTimeoutMs?: number;
  /** Wait before reconnecting after a broken stream, a 429 or a 5xx (or Retry-After). */
  retryDelayMs?: number;
  fetch?: typeof fetch;
}

/** An answer that reconnecting will not change (401, 403, 404, 422). */
export class FeedError extends Error {
  override name = "FeedError";
  constructor(
    readonly status: number,
    readonly problem: unknown,
  ) {
    super(`the feed answered ${status}: ${JSON.stringify(problem)}`);
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });

/**
 * Every item of the ladder after `after`, in cursor order, as it commits; reconnects from the
 * last item yielded whenever the stream ends, breaks or goes silent, so no item is skipped or
 * repeated. Ends when `signal` aborts or the caller stops iterating.
 */
export async function* followFeed(options: FollowFeedOptions): AsyncGenerator<FeedItemOut> {
  const fetcher = options.fetch ?? fetch;
  const idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  let after = options.after ?? 0;
  while (!options.signal?.aborted) {
    const url = new URL(
      `ladders/${encodeURIComponent(options.ladder)}/feed`,
      options.baseUrl.endsWith("/") ? options.baseUrl : `${options.baseUrl}/`,
    );
    url.searchParams.set("after", String(after));
    url.searchParams.set("follow", "true");
    const connection = new AbortController();
    const stop = () => connection.abort();
    options.signal?.addEventListener("abort", stop, { once: true });
    let idle: ReturnType<typeof setTimeout> | undefined;
    const watch = () => {
      clearTimeout(idle);
      idle = setTimeout(stop, idleTimeoutMs);
    };
    let wait = retryDelayMs;
    try {
      watch();
      const response = await fetcher(url, {
        headers: {
          Accept: "application/x-ndjson",
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
        },
        signal: connection.signal,
      });
      if (!response.ok) {
        const problem: unknown = await response.json().catch(() => null);
        if (response.status !== 429 && response.status < 500) {
          throw new FeedError(response.status, problem);
        }
        const retryAfter = Number(response.headers.get("retry-after"));
        if (retryAfter > 0) wait = retryAfter * 1000;
      } else if (response.body) {
        // A reader rather than `for await`: leaving the loop must not cancel the stream in a
        // way that throws, or a caller's `break` would read as a broken stream and reconnect.
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffered = "";
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            watch();
            buffered += decoder.decode(value, { stream: true });
            let end: number;
            while ((end = buffered.indexOf("\n")) >= 0) {
              const line = buffered.slice(0, end).trim();
              buffered = buffered.slice(end + 1);
              if (!line) continue; // a heartbeat
              const item = JSON.parse(line) as FeedItemOut;
              after = item.cursor;
              yield item;
            }
          }
        } finally {
          reader.cancel().catch(() => undefined);
        }
      }
    } catch (error) {
      // A stream that broke or went silent is resumed below; anything else is the caller's.
      if (error instanceof FeedError || !isNetworkError(error)) throw error;
    } finally {
      clearTimeout(idle);
      options.signal?.removeEventListener("abort", stop);
      connection.abort();
    }
    await sleep(wait, options.signal);
  }
}

function isNetworkError(error: unknown): boolean {
  return (
    error instanceof TypeError || // fetch's "fetch failed", "terminated"
    (error instanceof Error && error.name === "AbortError")
  );
}
