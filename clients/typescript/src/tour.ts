// A short tour of the client against a running service (tests/clients runs it; docs/clients.md):
// create a ladder, post a 2 v 2, read the leaderboard, follow the feed to the game's item, and
// verify the signature of the webhook that delivered it. The service must allow webhooks to
// 127.0.0.1 (RATINGS_WEBHOOK_ALLOWED_HOSTS=127.0.0.1).
//
//   RATINGS_URL=http://127.0.0.1:8000 RATINGS_TOKEN=... node dist/tour.js
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

import {
  createClient,
  createGame,
  createLadder,
  createWebhook,
  followFeed,
  getLeaderboard,
  verifyWebhook,
  WebhookVerificationError,
} from "./index.js";

const baseUrl = process.env.RATINGS_URL ?? "http://127.0.0.1:8000";
const token = process.env.RATINGS_TOKEN ?? "";
const ladder = process.env.RATINGS_TOUR_LADDER ?? "ts-tour";
const client = createClient({ baseUrl, auth: token });

// A receiver for the webhook: keeps each delivery's raw body and headers, answers 204.
const deliveries: { body: Buffer; headers: IncomingHttpHeaders }[] = [];
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    deliveries.push({ body: Buffer.concat(chunks), headers: request.headers });
    response.writeHead(204).end();
  });
});
receiver.listen(0, "127.0.0.1");
await once(receiver, "listening");
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

try {
  // 1. An Elo ladder (initial 1500, K 32) and a webhook that hears of it.
  await createLadder({ client, body: { id: ladder, system: "elo" }, throwOnError: true });
  const { data: webhook } = await createWebhook({
    client,
    body: { url: receiverUrl, ladders: [ladder] },
    throwOnError: true,
  });

  // 2. A 2 v 2 of new players: both sides at 1500, expected score 0.5, so the winners gain
  //    32 × (1 − 0.5) = 16 each and the losers lose 16 (docs/api.md, Teams).
  const { data: game } = await createGame({
    client,
    body: {
      ladder,
      id: "tour-1",
      played_at: "2026-11-29T10:00:00Z",
      teams: [
        { team: "red", rank: 1, players: [{ player: "alice" }, { player: "bob" }] },
        { team: "blue", rank: 2, players: [{ player: "carol" }, { player: "dave" }] },
      ],
    },
    throwOnError: true,
  });
  assert.deepEqual(
    Object.fromEntries(game.changes.map((c) => [c.player, c.rating_after])),
    { alice: 1516, bob: 1516, carol: 1484, dave: 1484 },
  );

  // 3. The leaderboard.
  const { data: board } = await getLeaderboard({
    client,
    path: { ladder },
    throwOnError: true,
  });
  assert.deepEqual(
    board.entries.map((e) => [e.player, e.rating]),
    [["alice", 1516], ["bob", 1516], ["carol", 1484], ["dave", 1484]],
  );

  // 4. Follow the feed from the start until the game's item.
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), 20_000);
  let found;
  for await (const item of followFeed({ baseUrl, token, ladder, after: 0, signal: stop.signal })) {
    if (item.event?.id === "tour-1") {
      found = item;
      break;
    }
  }
  clearTimeout(timer);
  assert.ok(found, "the game's item reached the followed feed");
  assert.equal(found.type, "game.rated");
  assert.deepEqual(
    Object.fromEntries(found.ratings.map((r) => [r.player, [r.before, r.after?.rating]])),
    { alice: [null, 1516], bob: [null, 1516], carol: [null, 1484], dave: [null, 1484] },
  );

  // 5. The webhook's delivery of the same item, its signature verified.
  const deadline = Date.now() + 20_000;
  while (deliveries.length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const delivery = deliveries[0];
  assert.ok(delivery, "the webhook delivered the game's item");
  const delivered = verifyWebhook(webhook.secret, delivery.body, delivery.headers);
  assert.equal(delivered.id, found.id);
  assert.equal(delivery.headers["webhook-id"], found.id);
  const forged = Buffer.from(delivery.body.toString().replace("1516", "1616"));
  assert.throws(
    () => verifyWebhook(webhook.secret, forged, delivery.headers),
    WebhookVerificationError,
  );

  console.log(JSON.stringify({ tour: "ok", item: found.id, cursor: found.cursor }));
} finally {
  receiver.close();
}
