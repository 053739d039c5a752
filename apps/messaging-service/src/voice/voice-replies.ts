import type Redis from 'ioredis';

/** A reply to speak to a caller: the agent's text, and whether the responder handed the conversation to a person. */
export interface VoiceReply {
  text: string;
  handoff: boolean;
}

/** A reply nobody fetched (the caller hung up) is dropped after this. */
const REPLY_TTL_MS = 10 * 60_000;

/**
 * Where the agent's reply to one utterance of a call waits for the webhook request that speaks it. The reply is made
 * asynchronously (message.inbound → responder → the send path), so the Twilio request for the speech result waits on
 * a Redis list keyed by call and turn, with a deadline. Redis, not process memory: when the deadline passes and Twilio
 * follows the filler's `<Redirect>`, that request may land on any instance and still finds the reply. BLPOP pops
 * atomically, so a wait that timed out took nothing and exactly one request speaks each reply.
 */
export class VoiceReplies {
  /** `redis` is shared for writes; each wait blocks a connection of its own (voice volumes make that cheap enough). */
  constructor(private readonly redis: Redis) {}

  async deliver(callSid: string, turn: string, reply: VoiceReply): Promise<void> {
    const key = replyKey(callSid, turn);
    await this.redis.multi().rpush(key, JSON.stringify(reply)).pexpire(key, REPLY_TTL_MS).exec();
  }

  /** The reply for this turn, or null when none arrived within `timeoutMs`. */
  async waitFor(callSid: string, turn: string, timeoutMs: number): Promise<VoiceReply | null> {
    const blocking = this.redis.duplicate();
    try {
      const popped = await blocking.blpop(replyKey(callSid, turn), Math.max(timeoutMs, 1) / 1000);
      return popped ? (JSON.parse(popped[1]) as VoiceReply) : null;
    } finally {
      blocking.disconnect();
    }
  }
}

function replyKey(callSid: string, turn: string): string {
  return `parley:voice-reply:${callSid}:${turn}`;
}
