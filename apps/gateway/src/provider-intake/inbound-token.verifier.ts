import { Injectable } from '@nestjs/common';
import { RpcClient } from '@parley/kafka';
import { createHash } from 'node:crypto';

/** How long an answer is trusted: a disconnected channel's token stops working within this (positive answers). */
export const VALID_TOKEN_TTL_MS = 60_000;
/** Wrong tokens are remembered briefly, so a flood of them costs one call each per channel and token. */
export const INVALID_TOKEN_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;
const VERIFY_TIMEOUT_MS = 3_000;

/**
 * Checks a 360dialog notification's `X-Channel-Token`. messaging-service owns the tokens (it keeps only their SHA-256
 * and compares in constant time), so the gateway asks it (`channels.verify-inbound-token`) and caches the answer
 * briefly: a steady stream of notifications costs no call per request, and the gateway never holds a token store.
 * The cache is keyed by the token's digest, never the token.
 */
@Injectable()
export class InboundTokenVerifier {
  private readonly cache = new Map<string, { valid: boolean; expiresAt: number }>();

  constructor(private readonly rpc: RpcClient) {}

  async isValid(channelId: string, token: string, requestId: string): Promise<boolean> {
    const key = `${channelId}:${createHash('sha256').update(token).digest('base64url')}`;
    const now = Date.now();
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > now) return cached.valid;
    // An unreachable messaging-service throws: the caller answers 503 and the provider redelivers.
    const { valid } = await this.rpc.request('channels.verify-inbound-token', { channel_id: channelId, token }, { requestId, timeoutMs: VERIFY_TIMEOUT_MS });
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, { valid, expiresAt: now + (valid ? VALID_TOKEN_TTL_MS : INVALID_TOKEN_TTL_MS) });
    return valid;
  }
}
