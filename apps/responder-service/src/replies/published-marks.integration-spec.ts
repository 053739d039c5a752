import { newId } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { ResponderHarness } from '../test/responder-harness';
import { PublishedMarks } from './published-marks';

describe('PublishedMarks: acknowledged outcomes marked many per statement', () => {
  let h: ResponderHarness;
  let marks: PublishedMarks;

  beforeAll(async () => {
    h = await ResponderHarness.start('marks');
    marks = h.app.get(PublishedMarks);
  });

  afterAll(async () => {
    await h?.close();
  });

  async function storedOutcome(tenantId: string): Promise<string> {
    const id = newId('msg');
    await h.sql.query(
      `INSERT INTO processed_messages (inbound_message_id, tenant_id, conversation_id, reply_message_id, events, published_at)
       VALUES ($1, $2, $3, NULL, '[]'::jsonb, NULL)`,
      [id, tenantId, newId('cnv')],
    );
    return id;
  }

  async function publishedAt(id: string): Promise<Date | null> {
    const [row]: { published_at: Date | null }[] = await h.sql.query('SELECT published_at FROM processed_messages WHERE inbound_message_id = $1', [id]);
    return row.published_at;
  }

  it('writes the marks of several tenants on its own, soon after, and remembers them until then', async () => {
    const a = [await storedOutcome('ten_a'), await storedOutcome('ten_a')];
    const b = await storedOutcome('ten_b');
    marks.mark('ten_a', a);
    marks.mark('ten_b', [b]);
    // Remembered at once, before any write: a redelivery meanwhile must not republish.
    expect([...a.map((id) => marks.isMarked('ten_a', id)), marks.isMarked('ten_b', b)]).toEqual([true, true, true]);

    await pollUntil(async () => (await Promise.all([...a, b].map(publishedAt))).every((at) => at !== null), { description: 'the marks written' });
    expect([...a.map((id) => marks.isMarked('ten_a', id)), marks.isMarked('ten_b', b)]).toEqual([false, false, false]);
  });

  it("never marks another tenant's outcome", async () => {
    const theirs = await storedOutcome('ten_other');
    const mine = await storedOutcome('ten_mine');
    marks.mark('ten_mine', [theirs, mine]);
    await marks.flush();

    expect(await publishedAt(mine)).not.toBeNull();
    expect(await publishedAt(theirs)).toBeNull();
    expect(marks.isMarked('ten_mine', mine)).toBe(false);
  });
});
