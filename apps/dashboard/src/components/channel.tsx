/** The channels a conversation or message travels on (CONTRACT §17), in words people read. */
export const CHANNEL_LABELS = { whatsapp: 'WhatsApp', sms: 'SMS', email: 'Email', voice: 'Voice call' } as const;
export type ChannelKind = keyof typeof CHANNEL_LABELS;
export const CHANNEL_KINDS = Object.keys(CHANNEL_LABELS) as ChannelKind[];

/** A known channel's name; an unknown one (a newer API than this dashboard) as the API spells it. */
export function channelLabel(channel: string): string {
  return (CHANNEL_LABELS as Record<string, string>)[channel] ?? channel;
}

/** A conversation's channel as a badge; a screen reader hears "Channel: SMS" (a span may not carry an aria-label). */
export function ChannelBadge({ channel }: { channel: string }) {
  return (
    <span className={`badge channel-${channel}`} data-testid="channel-badge" data-channel={channel}>
      <span className="visually-hidden">Channel: </span>
      {channelLabel(channel)}
    </span>
  );
}
