import type { EntityManager } from 'typeorm';
import type { Meaning } from '../knowledge/knowledge-match';
import { FakeEmbedder } from '../semantics/fake-embedder';
import { GapPlacer, type GapPlacementStore } from './gap-placer';
import { messageKey, type GapAsked, type GapCandidateRow, type GapChanges, type TenantMessage } from './gaps.store';

interface GapRow {
  tenantId: string;
  agent: string;
  language: string;
  state: 'open' | 'closed';
  count: number;
  centroid: Float32Array | null;
  createdAt: Date;
  lastSeenAt: Date;
}

/** GapsStore's contract in memory: what GapPlacer decides is tested without PostgreSQL (its SQL runs in the integration specs). */
class InMemoryGaps implements GapPlacementStore {
  readonly gaps = new Map<string, GapRow>();
  readonly wordings = new Map<string, { gapId: string; wording: string; text: string; count: number }>();
  readonly occurrences = new Map<string, GapChanges['occurrences'][number]>();
  readonly pending = new Set<string>();
  readonly locks: string[] = [];
  readonly reads: string[] = [];
  applies = 0;

  async lockAgent(_tx: EntityManager, tenantId: string, agent: string): Promise<void> {
    this.locks.push(`${tenantId}:${agent}`);
  }

  async counted(_tx: EntityManager, messages: TenantMessage[]): Promise<Set<string>> {
    return new Set(messages.map((m) => messageKey(m.tenantId, m.messageId)).filter((k) => this.occurrences.has(k)));
  }

  async candidates(_tx: EntityManager, tenantId: string, agent: string, language: string): Promise<GapCandidateRow[]> {
    this.reads.push(`${tenantId}:${agent}:${language}`);
    return [...this.gaps.entries()]
      .filter(([, g]) => g.tenantId === tenantId && g.agent === agent && g.language === language && g.state === 'open')
      .sort(([, a], [, b]) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime())
      .map(([id, g]) => ({ id, centroid: g.centroid, count: g.count, wordings: [...this.wordings.values()].filter((w) => w.gapId === id).map((w) => w.wording) }));
  }

  async apply(_tx: EntityManager, changes: GapChanges, done: TenantMessage[] = []): Promise<void> {
    this.applies++;
    for (const g of changes.opened) {
      if (this.gaps.has(g.id)) throw new Error(`gap ${g.id} exists`);
      this.gaps.set(g.id, { tenantId: g.tenantId, agent: g.agent, language: g.language, state: 'open', count: g.count, centroid: g.centroid, createdAt: g.createdAt, lastSeenAt: g.lastSeenAt });
    }
    for (const g of changes.grown) {
      const row = this.gaps.get(g.id)!;
      Object.assign(row, { count: row.count + g.added, lastSeenAt: g.lastSeenAt > row.lastSeenAt ? g.lastSeenAt : row.lastSeenAt, centroid: g.centroid ?? row.centroid });
    }
    for (const o of changes.occurrences) {
      const key = messageKey(o.tenantId, o.messageId);
      // the primary key: a message counts once
      if (this.occurrences.has(key)) throw new Error(`duplicate occurrence ${key}`);
      this.occurrences.set(key, o);
    }
    for (const w of changes.wordings) {
      const key = JSON.stringify([w.gapId, w.wording]);
      const row = this.wordings.get(key);
      if (row) row.count += w.added;
      else this.wordings.set(key, { gapId: w.gapId, wording: w.wording, text: w.text, count: w.added });
    }
    for (const d of done) this.pending.delete(messageKey(d.tenantId, d.messageId));
  }

  examples(gapId: string): string[] {
    return [...this.wordings.values()].filter((w) => w.gapId === gapId).sort((a, b) => b.count - a.count).map((w) => w.text);
  }
}

const tx = {} as EntityManager;
const T0 = Date.parse('2026-12-01T10:00:00Z');
let seq = 0;

function asked(text: string, overrides: Partial<Omit<GapAsked, 'occurrence'>> & { messageId?: string; customer?: string } = {}): GapAsked {
  seq++;
  const { messageId = `msg_${seq}`, customer = '+15550000001', ...rest } = overrides;
  return {
    tenantId: 'ten_a',
    agent: 'front-desk',
    text,
    language: 'en',
    ...rest,
    occurrence: { messageId, conversationId: `cnv_${seq}`, customer, reason: 'not_known', reply: "I don't know", at: new Date(T0 + seq * 1000) },
  };
}

function placer() {
  const store = new InMemoryGaps();
  const embedder = new FakeEmbedder([['park', 'parking', 'car', 'garage'], ['dog', 'dogs', 'pets']]);
  const meaning: Meaning = { embedder, languages: ['en'], model: 'fake' };
  return { store, embedder, gaps: new GapPlacer(store, meaning) };
}

describe('GapPlacer', () => {
  it('groups near-duplicates of one batch in one gap, opens one per new question, announces each gap once as its first question left it', async () => {
    const { store, gaps } = placer();
    const batch = [asked('Where can I park my car?', { customer: '+1555parker' }), asked('Is there parking near you?'), asked('Can I bring my dog?'), asked('where can I park my car')];
    const { placed, opened } = await gaps.place(tx, batch);

    const [parking, , dogs] = placed.map((p) => p!.gapId);
    expect(placed.map((p) => p!.gapId)).toEqual([parking, parking, dogs, parking]);
    expect(parking).not.toBe(dogs);
    expect(store.gaps.get(parking)).toMatchObject({ count: 3, createdAt: batch[0].occurrence.at, lastSeenAt: batch[3].occurrence.at });
    expect(store.gaps.get(dogs)).toMatchObject({ count: 1 });
    // one wording however it is spelled, the most asked first
    expect(store.examples(parking)).toEqual(['Where can I park my car?', 'Is there parking near you?']);

    expect(opened).toHaveLength(2);
    expect(placed.map((p) => p!.opened !== null)).toEqual([true, false, true, false]);
    const first = opened[0].value.data as { gap: { id: string; count: number; examples: string[]; question: string }; customer: string; reason: string };
    expect(first).toMatchObject({ gap: { id: parking, count: 1, question: 'Where can I park my car?', examples: ['Where can I park my car?'] }, customer: '+1555parker', reason: 'not_known' });
    expect(opened[0].key).toBe('ten_a:front-desk');

    // one lock, one read of the agent's gaps, one write, for the whole batch
    expect(store.locks).toEqual(['ten_a:front-desk']);
    expect(store.reads).toEqual(['ten_a:front-desk:en']);
    expect(store.applies).toBe(1);
  });

  it('counts a question in the open gap it belongs to, moving its centroid; a closed gap takes no more questions', async () => {
    const { store, gaps } = placer();
    const [{ placed: before }] = [await gaps.place(tx, [asked('Where can I park my car?')])];
    const gapId = before[0]!.gapId;
    const centroid = store.gaps.get(gapId)!.centroid!;

    const { placed, opened } = await gaps.place(tx, [asked('Is there a garage for my bike?')]);
    expect(placed[0]).toEqual({ gapId, opened: null });
    expect(opened).toEqual([]);
    expect(store.gaps.get(gapId)!.count).toBe(2);
    expect(store.gaps.get(gapId)!.centroid).not.toEqual(centroid);

    store.gaps.get(gapId)!.state = 'closed';
    const again = await gaps.place(tx, [asked('Where can I park my car?')]);
    expect(again.placed[0]!.gapId).not.toBe(gapId);
    expect(again.opened).toHaveLength(1);
  });

  it('counts a message once: counted already, or twice in a batch; an empty question counts nowhere; claimed rows are done either way', async () => {
    const { store, gaps } = placer();
    const question = asked('Do you repair bikes?', { messageId: 'msg_same' });
    await gaps.place(tx, [question]);
    store.pending.add(messageKey('ten_a', 'msg_same')).add(messageKey('ten_a', 'msg_empty'));

    const redelivered = { ...question, occurrence: { ...question.occurrence } };
    const empty = asked('', { messageId: 'msg_empty' });
    const done = [redelivered, empty].map((a) => ({ tenantId: a.tenantId, messageId: a.occurrence.messageId }));
    const { placed, opened } = await gaps.place(tx, [redelivered, empty], done);
    expect(placed).toEqual([null, null]);
    expect(opened).toEqual([]);
    expect([...store.gaps.values()].map((g) => g.count)).toEqual([1]);
    expect(store.pending.size).toBe(0);

    const twice = asked('Do you sell gift cards?', { messageId: 'msg_twice' });
    const result = await gaps.place(tx, [twice, { ...twice }]);
    expect(result.placed[1]).toBeNull();
    expect(store.occurrences.size).toBe(2);
  });

  it('groups by shared words where the model does not read the language, without asking the model', async () => {
    const { store, embedder, gaps } = placer();
    const { placed } = await gaps.place(tx, [
      asked('¿Dónde puedo aparcar el coche?', { language: 'es' }),
      asked('¿Se puede aparcar el coche cerca?', { language: 'es' }),
      asked('Where can I park?', { language: 'en' }),
    ]);
    expect(placed[0]!.gapId).toBe(placed[1]!.gapId);
    expect(placed[2]!.gapId).not.toBe(placed[0]!.gapId);
    expect(store.gaps.get(placed[0]!.gapId)).toMatchObject({ language: 'es', centroid: null, count: 2 });
    expect(embedder.calls).toEqual([['Where can I park?']]);
    expect(store.reads.sort()).toEqual(['ten_a:front-desk:en', 'ten_a:front-desk:es']);
  });

  it("keeps tenants' and agents' gaps apart and locks the agents of a batch in one order, whatever order they come in", async () => {
    const { store, gaps } = placer();
    const { placed } = await gaps.place(tx, [
      asked('Where can I park?', { tenantId: 'ten_b', agent: 'shop' }),
      asked('Where can I park?', { tenantId: 'ten_a', agent: 'shop' }),
      asked('Where can I park?', { tenantId: 'ten_a', agent: 'front-desk' }),
      asked('Where can I park my car?', { tenantId: 'ten_b', agent: 'shop' }),
    ]);
    expect(new Set(placed.map((p) => p!.gapId)).size).toBe(3);
    expect(placed[3]!.gapId).toBe(placed[0]!.gapId);
    expect(store.locks).toEqual(['ten_a:front-desk', 'ten_a:shop', 'ten_b:shop']);
  });
});
