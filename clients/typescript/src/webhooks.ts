// Verifying a webhook's signature (Standard Webhooks 1.0, the scheme docs/sync.md describes):
// `webhook-signature` holds space-separated `v1,<base64 HMAC-SHA256>` signatures, keyed by the
// secret's bytes (base64 after `whsec_`), over `{webhook-id}.{webhook-timestamp}.{body}`.
// Node's crypto only, so the client has no runtime dependency.
import { createHmac, timingSafeEqual } from "node:crypto";

import type { FeedItemOut } from "./generated/types.gen.js";

/** Seconds a timestamp may be from the receiver's clock (the standard's five minutes). */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;
const SECRET_PREFIX = "whsec_";

export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
}

/** Headers as fetch (`Headers`) or node:http (`IncomingHttpHeaders`) give them. */
export type WebhookHeaders =
  | Headers
  | Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string {
  let value: string | string[] | null | undefined;
  if (typeof (headers as Headers).get === "function") {
    value = (headers as Headers).get(name);
  } else {
    const record = headers as Record<string, string | string[] | undefined>;
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : record[key];
  }
  if (Array.isArray(value)) value = value.join(" ");
  if (!value) throw new WebhookVerificationError(`missing header ${name}`);
  return value;
}

function secretBytes(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX)
    ? secret.slice(SECRET_PREFIX.length)
    : secret;
  return Buffer.from(encoded, "base64");
}

/** `v1,` + base64 of the HMAC: what the service puts in `webhook-signature`. */
export function signWebhook(
  secret: string,
  id: string,
  timestamp: number,
  body: string | Uint8Array,
): string {
  const mac = createHmac("sha256", secretBytes(secret));
  mac.update(`${id}.${timestamp}.`);
  mac.update(body);
  return `v1,${mac.digest("base64")}`;
}

export interface VerifyOptions {
  /** The receiver's clock, Unix seconds (default: now). */
  now?: number;
  /** How far `webhook-timestamp` may be from `now`, in seconds. */
  toleranceSeconds?: number;
}

/**
 * The item a webhook delivered, once its signature is checked; throws
 * WebhookVerificationError if a header is missing, the timestamp is too old or too new, or
 * no signature matches. Pass the body exactly as received (before any JSON parsing).
 */
export function verifyWebhook(
  secret: string,
  body: string | Uint8Array,
  headers: WebhookHeaders,
  options: VerifyOptions = {},
): FeedItemOut {
  const id = header(headers, "webhook-id");
  const stamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  const timestamp = Number(stamp);
  if (!/^\d+$/.test(stamp) || !Number.isSafeInteger(timestamp)) {
    throw new WebhookVerificationError("webhook-timestamp is not a Unix time in seconds");
  }
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookVerificationError("webhook-timestamp is too far from now");
  }
  const expected = Buffer.from(signWebhook(secret, id, timestamp, body).slice(3), "base64");
  const matches = signatures.split(" ").some((signature) => {
    const [version, encoded] = signature.split(",", 2);
    if (version !== "v1" || encoded === undefined) return false;
    const given = Buffer.from(encoded, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError("no signature matches");
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  return JSON.parse(text) as FeedItemOut;
}
