import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { VoiceReplies } from './voice-replies';

describe('VoiceReplies (real Redis)', () => {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
  afterAll(() => redis.quit());

  it('hands a reply made while the request waits to that request, and only that turn’s', async () => {
    const replies = new VoiceReplies(redis);
    const call = `CA${randomUUID()}`;
    const waiting = replies.waitFor(call, '2', 5_000);
    await replies.deliver(call, '1', { text: 'an older turn', handoff: false });
    await replies.deliver(call, '2', { text: 'We open at nine.', handoff: false });
    await expect(waiting).resolves.toEqual({ text: 'We open at nine.', handoff: false });
  });

  it('keeps a reply that came after the deadline for the redirected request, on another instance', async () => {
    const call = `CA${randomUUID()}`;
    const first = new VoiceReplies(redis);
    const otherInstance = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const other = new VoiceReplies(otherInstance);
    const started = Date.now();
    await expect(first.waitFor(call, '1', 300)).resolves.toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    await first.deliver(call, '1', { text: 'Connecting you to a person.', handoff: true });
    await expect(other.waitFor(call, '1', 2_000)).resolves.toEqual({ text: 'Connecting you to a person.', handoff: true });
    // Spoken once: nothing is left for a repeated fetch.
    await expect(other.waitFor(call, '1', 200)).resolves.toBeNull();
    await otherInstance.quit();
  });
});
