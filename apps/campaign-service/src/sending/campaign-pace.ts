import type { ChannelRecord } from '@parley/contracts';

/** The Cloud API's per-number limit when a channel names none (CONTRACT.md §4). */
export const CLOUD_API_DEFAULT_LIMIT_PER_SECOND = 80;
/** The share of a number's limit a campaign may use: the rest stays free for agent replies, which then never queue behind it. */
export const CAMPAIGN_SHARE = 0.75;

/**
 * A campaign's pace on its channel: what it asked for, at most three quarters of the number's limit (its own, else the
 * Cloud API's default for a provider number; a sandbox number without a limit has none).
 */
export function campaignPace(requested: number, channel: Pick<ChannelRecord, 'provider' | 'send_limit_per_second'> | null): number {
  const limit = channel?.send_limit_per_second ?? (channel && channel.provider !== 'sandbox' ? CLOUD_API_DEFAULT_LIMIT_PER_SECOND : null);
  if (limit === null) return requested;
  return Math.max(1, Math.min(requested, Math.floor(limit * CAMPAIGN_SHARE)));
}
