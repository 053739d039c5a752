import { newId, type MessageInboundEvent } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { DataSource } from 'typeorm';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { BUSINESS, ResponderHarness, agentRecord, inboundEvent, phoneNumber, type ResponderOutputs } from '../test/responder-harness';

const CONVERSATION_LOCK = 'pg_advisory_xact_lock(hashtextextended($1, 0))';

/**
 * What a reply costs the database: its transaction, under the conversation's lock, is the lock, one read and one write
 * (BurstStore), whether the agent answered or not; a question it could not answer is grouped into its gap afterwards,
 * by the gaps worker, outside that transaction.
 */
describe('responder-service: statements per reply', () => {
  let h: ResponderHarness;
  let out: ResponderOutputs;
  let app: DataSource;
  /** The service's statements, per connection (a connection runs one transaction at a time). */
  let log: { runner: PostgresQueryRunner; sql: string }[] | null = null;
  const query = PostgresQueryRunner.prototype.query;

  beforeAll(async () => {
    h = await ResponderHarness.start('statements');
    out = await h.probeOutputs();
    app = h.app.get(DataSource);
    PostgresQueryRunner.prototype.query = function (this: PostgresQueryRunner, sql: string, ...rest: unknown[]) {
      if (log && this.connection === app) log.push({ runner: this, sql: sql.replace(/\s+/g, ' ').trim() });
      return (query as (...args: unknown[]) => Promise<unknown>).call(this, sql, ...rest);
    } as typeof query;
  });

  afterAll(async () => {
    PostgresQueryRunner.prototype.query = query;
    await h?.close();
  });

  /** The statements of the transaction that committed the reply to `text`, from its BEGIN to its COMMIT. */
  async function replyTransaction(tenant: string, text: string): Promise<string[]> {
    const event: MessageInboundEvent = inboundEvent(tenant, { from: phoneNumber(), to: BUSINESS, text });
    log = [];
    await h.deliverInbound(event);
    await pollUntil(() => out.received.messages.find((m) => m.value.data.message_id === event.data.message_id), { description: `message.received of "${text}"` });
    const seen = log;
    log = null;
    const runner = seen.find((q) => q.sql.includes(CONVERSATION_LOCK))!.runner;
    const mine = seen.filter((q) => q.runner === runner).map((q) => q.sql);
    const begin = mine.findIndex((sql, i) => sql === 'START TRANSACTION' && mine[i + 1]?.includes(CONVERSATION_LOCK));
    return mine.slice(begin, mine.indexOf('COMMIT', begin) + 1);
  }

  it('answers, and says it does not know, with the same three statements in the conversation transaction', async () => {
    const tenant = newId('ten');
    await h.announceAgent(tenant, agentRecord('front-desk', { faqs: [{ question: 'What are your opening hours?', answer: 'We open at 9:00.' }] }));
    // the lock, the burst's read, its write (turns, outcome rows, the analytics row and the queued question as its CTEs)
    const shape = [/^START TRANSACTION$/, /^SELECT pg_advisory_xact_lock\(hashtextextended\(\$1, 0\)\)$/, /^WITH conv AS \( SELECT/, /^WITH conv AS \(INSERT INTO conversations/, /^COMMIT$/];
    // the first reply also reads the agent's documents (then cached for a while, AgentDocumentsService)
    await replyTransaction(tenant, 'Hello');
    const answered = await replyTransaction(tenant, 'What are your opening hours?');
    const notKnown = await replyTransaction(tenant, 'Where can I park my car?');
    // The documents stay cached 1.5 s: on a slow machine the read comes again, inside; it is not the conversation's.
    const ownStatements = (statements: string[]) => statements.filter((sql) => !sql.startsWith('SELECT document_id, title, passages'));
    for (const statements of [answered, notKnown]) expect(ownStatements(statements)).toEqual(shape.map((re) => expect.stringMatching(re)));
    expect(ownStatements(answered)[3]).toContain('INSERT INTO reply_outcomes');
    expect(ownStatements(notKnown)[3]).toContain('INSERT INTO knowledge_gap_pending');
    // the question is grouped after the commit, and the reply's outcome was written with it
    const gaps = await pollUntil(
      async () => {
        const page = await h.kafka.rpc.request('gaps.list', { tenant_id: tenant, agent: 'front-desk', state: 'open', limit: 10, cursor: null });
        return page.data.length ? page.data : undefined;
      },
      { description: 'the gap' },
    );
    expect(gaps).toEqual([expect.objectContaining({ question: 'Where can I park my car?', count: 1 })]);
    const outcomes: { outcome: string }[] = await h.sql.query('SELECT outcome FROM reply_outcomes WHERE tenant_id = $1 ORDER BY at', [tenant]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['other', 'answered', 'not_known']);
    const pending: unknown[] = await h.sql.query('SELECT 1 FROM knowledge_gap_pending WHERE tenant_id = $1', [tenant]);
    expect(pending).toEqual([]);
  });
});
