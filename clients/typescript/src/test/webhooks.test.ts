// The signature helpers against the Standard Webhooks libraries' published vector
// (standard-webhooks/standard-webhooks, libraries/javascript/src/webhook.test.ts,
// "sign function works"; the same in every language's tests).
import assert from "node:assert/strict";
import { test } from "node:test";

import { signWebhook, verifyWebhook, WebhookVerificationError } from "../webhooks.js";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
const TIMESTAMP = 1614265330;
const BODY = '{"test": 2432232314}';
const SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

const headers = (signature: string, timestamp = TIMESTAMP) => ({
  "webhook-id": ID,
  "webhook-timestamp": String(timestamp),
  "webhook-signature": signature,
});

test("signs the published vector", () => {
  assert.equal(signWebhook(SECRET, ID, TIMESTAMP, BODY), SIGNATURE);
});

test("verifies the published vector, also among other signatures and as Headers", () => {
  const item = verifyWebhook(SECRET, BODY, headers(SIGNATURE), { now: TIMESTAMP });
  assert.deepEqual(item, { test: 2432232314 });
  const several = `v1,Zm9v ${SIGNATURE} v1a,whatever`;
  verifyWebhook(SECRET, new TextEncoder().encode(BODY), new Headers(headers(several)), {
    now: TIMESTAMP + 299,
  });
});

test("refuses a changed body, another secret, a stale or future timestamp, a missing header", () => {
  const refused = (run: () => unknown, message: RegExp) =>
    assert.throws(run, (e: unknown) => e instanceof WebhookVerificationError && message.test(e.message));
  refused(
    () => verifyWebhook(SECRET, '{"test": 2432232315}', headers(SIGNATURE), { now: TIMESTAMP }),
    /no signature matches/,
  );
  refused(
    () => verifyWebhook("whsec_" + "A".repeat(32), BODY, headers(SIGNATURE), { now: TIMESTAMP }),
    /no signature matches/,
  );
  refused(
    () => verifyWebhook(SECRET, BODY, headers(SIGNATURE), { now: TIMESTAMP + 301 }),
    /too far/,
  );
  refused(
    () => verifyWebhook(SECRET, BODY, headers(SIGNATURE), { now: TIMESTAMP - 301 }),
    /too far/,
  );
  refused(
    () => verifyWebhook(SECRET, BODY, { "webhook-id": ID }, { now: TIMESTAMP }),
    /missing header webhook-timestamp/,
  );
});
