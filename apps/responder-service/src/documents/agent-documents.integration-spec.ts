import { EventPublisher } from '@parley/kafka';
import { Topics, newId, type DocumentChangedData, type DocumentChangedEvent } from '@parley/contracts';
import { pollUntil, recordedEventExamples } from '@parley/testing';
import { ResponderHarness, agentRecord } from '../test/responder-harness';
import { documentPassageTitle } from '../knowledge/rank-knowledge';
import { passageViews } from '../semantics/semantic-index';
import { AgentDocumentsService } from './agent-documents.service';

/** CONTRACT §11: a document that is ready, or deleted, changes the agent's answers within 5 s. */
const WITHIN_MS = 5000;

describe("responder-service's document read model, fed by document.changed (real Kafka and PostgreSQL)", () => {
  let h: ResponderHarness;
  let documents: AgentDocumentsService;

  beforeAll(async () => {
    h = await ResponderHarness.start('respdocs');
    documents = h.app.get(AgentDocumentsService);
  });

  afterAll(() => h?.close());

  const publish = (data: DocumentChangedData) => {
    const event: DocumentChangedEvent = EventPublisher.envelope(Topics.DocumentChanged, data.tenant_id, data);
    return h.kafka.publisher.publishEvent(event, `${data.tenant_id}:${data.document_id}`);
  };
  const passagesOf = (tenantId: string, agentId: string, documentId: string) =>
    ({ tenant_id: tenantId, document_id: documentId, agent_id: agentId, agent_name: 'clinic', title: 'Price list' }) as const;

  it('consumes the recorded examples: a ready document, then its deletion', async () => {
    const examples = recordedEventExamples<DocumentChangedEvent>(Topics.DocumentChanged).sort((a, b) => a.envelope.occurred_at.localeCompare(b.envelope.occurred_at));
    const ready = examples.find((e) => e.envelope.data.passages !== null)!.envelope.data;
    await publish(ready);
    await pollUntil(async () => (await documents.forAgent(ready.tenant_id, ready.agent_id)).length === ready.passages!.length, { description: 'the example passages' });
    const { vectors, ...passage } = (await documents.forAgent(ready.tenant_id, ready.agent_id))[1];
    expect(passage).toEqual({
      id: ready.passages![1].id,
      documentId: ready.document_id,
      title: ready.title,
      headings: ready.passages![1].headings,
      text: ready.passages![1].text,
    });
    // embedded once when it arrived (issue 31): a vector per view (the passage, and each sentence of a longer one)
    expect(vectors?.size).toBe(passageViews({ type: 'document', title: documentPassageTitle(passage), text: passage.text }).length);
    expect(vectors?.dimensions).toBe(384);
    for (const { envelope } of examples.filter((e) => e.envelope.data.passages === null)) await publish(envelope.data);
    await pollUntil(async () => (await documents.forAgent(ready.tenant_id, ready.agent_id)).length === 0, { description: 'the example deletion applied' });
  });

  it("puts a ready document's passages in the agent's replies, and a deletion takes them out within 5 s", async () => {
    const tenant = `ten_${newId('ten').slice(4)}`;
    const agent = agentRecord('clinic', { instruction: 'You answer questions about Bloom Dental.' });
    await h.announceAgent(tenant, agent);
    const documentId = newId('doc');
    const whitening = { id: `${documentId}#0`, headings: ['Prices', 'Whitening'], text: 'Teeth whitening costs 300 dollars per session and takes about an hour.' };
    const ask = () => h.kafka.rpc.request('replies.preview', { tenant_id: tenant, agent: 'clinic', message: 'how much does teeth whitening cost?', from: null });

    let started = Date.now();
    await publish({ ...passagesOf(tenant, agent.id, documentId), passages: [whitening] });
    await pollUntil(async () => (await ask()).reply.includes('300 dollars'), { description: 'a reply from the document', timeoutMs: WITHIN_MS, intervalMs: 100 });
    expect(Date.now() - started).toBeLessThan(WITHIN_MS);
    // Another agent of the tenant, and the same agent id under another tenant, see none of it.
    expect(await documents.forAgent(tenant, newId('agt'))).toEqual([]);
    expect(await documents.forAgent('ten_other', agent.id)).toEqual([]);

    started = Date.now();
    await publish({ ...passagesOf(tenant, agent.id, documentId), passages: null });
    await pollUntil(async () => !(await ask()).reply.includes('300 dollars'), { description: 'the document gone from replies', timeoutMs: WITHIN_MS, intervalMs: 100 });
    expect(Date.now() - started).toBeLessThan(WITHIN_MS);
    expect(await documents.forAgent(tenant, agent.id)).toEqual([]);

    // A late re-announcement of the ready document (published before the deletion was) cannot bring it back.
    await publish({ ...passagesOf(tenant, agent.id, documentId), passages: [whitening] });
    const marker = newId('doc');
    await publish({ ...passagesOf(tenant, agent.id, marker), passages: [{ id: `${marker}#0`, headings: [], text: 'Parking is free.' }] });
    await pollUntil(async () => (await documents.forAgent(tenant, agent.id)).some((p) => p.documentId === marker), { description: 'the later change applied' });
    expect((await documents.forAgent(tenant, agent.id)).map((p) => p.documentId)).toEqual([marker]);
  });

  it('swaps a refreshed document whole: questions asked while it changes read one version of it, never a mix', async () => {
    const tenant = `ten_${newId('ten').slice(4)}`;
    const agent = agentRecord('clinic', { instruction: 'You answer questions about Bloom Dental.' });
    await h.announceAgent(tenant, agent);
    const documentId = newId('doc');
    const version = (n: number) => [
      { id: `${documentId}#0`, headings: ['Prices', 'Whitening'], text: `Teeth whitening costs ${300 + n} dollars per session (price list ${n}).` },
      { id: `${documentId}#1`, headings: ['Prices', 'Cleaning'], text: `A cleaning costs ${90 + n} dollars (price list ${n}).` },
      { id: `${documentId}#2`, headings: ['Prices', 'Check-up'], text: `A check-up costs ${50 + n} dollars (price list ${n}).` },
    ];
    const lists = (texts: string[]) => new Set(texts.map((t) => /price list (\d+)/.exec(t)?.[1]));
    await publish({ ...passagesOf(tenant, agent.id, documentId), passages: version(1) });
    await pollUntil(async () => (await documents.forAgent(tenant, agent.id)).length === 3, { description: 'the first price list' });

    // the page changes nine times while the agent's knowledge is read and its answers asked for, all at once
    const VERSIONS = 10;
    let publishing = true;
    const published = (async () => {
      for (let n = 2; n <= VERSIONS; n++) await publish({ ...passagesOf(tenant, agent.id, documentId), passages: version(n) });
      publishing = false;
    })();
    const reads: Set<string | undefined>[] = [];
    const answers: Set<string | undefined>[] = [];
    while (publishing || reads.length < 20) {
      const [passages, preview] = await Promise.all([
        h.sql.query(`SELECT passages FROM agent_documents WHERE tenant_id = $1 AND document_id = $2`, [tenant, documentId]) as Promise<{ passages: { text: string }[] }[]>,
        h.kafka.rpc.request('replies.preview', { tenant_id: tenant, agent: 'clinic', message: 'how much does teeth whitening cost?', from: null }),
      ]);
      reads.push(lists(passages[0].passages.map((p) => p.text)));
      answers.push(lists(preview.sources.map((source) => source.excerpt).filter((e) => e.includes('price list'))));
    }
    await published;
    expect(reads.filter((r) => r.size !== 1)).toEqual([]);
    expect(answers.filter((a) => a.size > 1)).toEqual([]);
    expect(answers.filter((a) => a.size === 1).length).toBeGreaterThan(0);
    await pollUntil(async () => (await documents.forAgent(tenant, agent.id)).every((p) => p.text.includes(`price list ${VERSIONS}`)), { description: 'the last price list' });
  });
});
