// followFeed against a stub fetch: a stream that breaks is reopened after the last item
// yielded (each item once, in cursor order), heartbeats are skipped, a 503 is retried and a
// 404 is thrown.
import assert from "node:assert/strict";
import { test } from "node:test";

import { FeedError, followFeed } from "../feed.js";

const item = (cursor: number) => ({
  cursor,
  id: `fi_${cursor}`,
  type: "game.rated",
  at: "2026-11-29T10:00:00Z",
  event: { kind: "game", id: `g${cursor}` },
  ratings: [],
});

test("resumes from the last cursor after each break, skipping heartbeats", async () => {
  const asked: string[] = [];
  // Each connection sends a heartbeat and one item, split across chunks, then breaks; the
  // second connection first answers 503.
  const stub = async (input: string | URL | Request): Promise<Response> => {
    const url = new URL(String(input));
    asked.push(`${url.pathname}?${url.searchParams}`);
    if (asked.length === 2) return new Response("{}", { status: 503 });
    const line = JSON.stringify(item(Number(url.searchParams.get("after")) + 1)) + "\n";
    const bytes = new TextEncoder().encode("\n" + line);
    const chunks = [bytes.slice(0, 10), bytes.slice(10)];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks.shift();
        if (chunk) controller.enqueue(chunk);
        else controller.error(new TypeError("terminated"));
      },
    });
    return new Response(body, { headers: { "content-type": "application/x-ndjson" } });
  };
  const cursors: number[] = [];
  for await (const found of followFeed({
    baseUrl: "http://ratings.test",
    ladder: "club elo",
    fetch: stub as typeof fetch,
    retryDelayMs: 1,
  })) {
    cursors.push(found.cursor);
    if (cursors.length === 3) break;
  }
  assert.deepEqual(cursors, [1, 2, 3]);
  assert.deepEqual(asked, [
    "/ladders/club%20elo/feed?after=0&follow=true",
    "/ladders/club%20elo/feed?after=1&follow=true",
    "/ladders/club%20elo/feed?after=1&follow=true",
    "/ladders/club%20elo/feed?after=2&follow=true",
  ]);
});

test("throws what reconnecting will not change", async () => {
  const stub = async () =>
    new Response(JSON.stringify({ status: 404, title: "Not Found" }), { status: 404 });
  await assert.rejects(
    async () => {
      for await (const _ of followFeed({ baseUrl: "http://ratings.test/", ladder: "nope", fetch: stub })) {
        // never reached
      }
    },
    (error: unknown) => error instanceof FeedError && error.status === 404,
  );
});

test("ends when the signal aborts, also while the stream is quiet", async () => {
  let opened = 0;
  const quiet = async (_input: string | URL | Request, init?: RequestInit) => {
    opened += 1;
    // A stream that sends nothing until the request is aborted, as a quiet ladder's does.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        init?.signal?.addEventListener("abort", () => controller.error(init.signal?.reason));
      },
    });
    return new Response(body);
  };
  const started = Date.now();
  const items = [];
  for await (const found of followFeed({
    baseUrl: "http://ratings.test",
    ladder: "quiet",
    fetch: quiet as typeof fetch,
    signal: AbortSignal.timeout(100),
  })) {
    items.push(found);
  }
  assert.deepEqual(items, []);
  assert.equal(opened, 1);
  assert.ok(Date.now() - started < 2000);
});
