import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { LANGUAGES } from '../knowledge/language';
import { engineMeaning } from '../semantics/engine-meaning';
import { markdownReport, missedTargets, runEval, type EvalReport } from './agent-eval';

const EVAL_DIR = join(__dirname, '../../../../tools/eval/held-out');

describe('the agent evaluation on its held-out split (npm run eval over tools/eval/held-out)', () => {
  let report: EvalReport;
  beforeAll(async () => {
    // the engine as the service runs it: with the in-process model (a local file: npm test fetches it first)
    report = await runEval(EVAL_DIR, await engineMeaning());
  }, 120_000); // about 5 s on a quiet machine: the model's first embeddings of ten businesses' knowledge

  it('holds at least 250 cases, 50 in each of the five languages, a quarter of them questions the knowledge cannot answer', () => {
    expect(report.total).toBeGreaterThanOrEqual(250);
    expect([...report.byLanguage.keys()].sort()).toEqual([...LANGUAGES].sort());
    for (const t of report.byLanguage.values()) expect(t.total).toBeGreaterThanOrEqual(50);
    expect(report.byArea.get('unknown')!.total / report.total).toBeGreaterThanOrEqual(0.25);
    for (const area of ['faq', 'document', 'instruction', 'handoff', 'smalltalk', 'switch'] as const) expect(report.byArea.get(area)?.total ?? 0).toBeGreaterThanOrEqual(10);
  });

  /**
   * Where the engine stands on this split (2026-12-05, issue 31): a change that loses ground fails here. The targets
   * (TARGETS: 90% right, none confident-wrong, 85% in each language) are not met yet; `npm run eval` prints them and
   * exits 1 while they are missed, and docs/guides/agents.md ("How the agent understands") says why.
   */
  const FLOOR = { shareRight: 0.45, confidentWrong: 11, perLanguage: 0.4 };

  it(`holds its ground: ≥ ${FLOOR.shareRight * 100}% right, ≤ ${FLOOR.confidentWrong} confident-wrong, ≥ ${FLOOR.perLanguage * 100}% in each language`, () => {
    // Its wrong turns are never printed (reading them is how a split stops being held out): the totals say enough.
    expect(report.confidentWrong).toBeLessThanOrEqual(FLOOR.confidentWrong);
    expect(report.right / report.total).toBeGreaterThanOrEqual(FLOOR.shareRight);
    for (const [language, t] of report.byLanguage) expect({ language, share: t.right / t.total >= FLOOR.perLanguage }).toEqual({ language, share: true });
  });
});

describe('the evaluation judge', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-eval-'));
    mkdirSync(join(dir, 'agents'));
    mkdirSync(join(dir, 'cases'));
    writeFileSync(
      join(dir, 'agents', 'shop.json'),
      JSON.stringify({
        name: 'shop',
        instruction: 'Answer questions. We are open Monday to Friday from 9am to 5pm.',
        greeting: '',
        skills: ['faq_responder'],
        faqs: [{ question: 'Is there parking?', answer: 'Parking is free behind the shop.' }],
        documents: [{ title: 'Prices', text: '# Prices\n\n## Repairs\nA screen repair costs 80 EUR.' }],
      }),
    );
    const cases = [
      // right
      { id: 'right', area: 'faq', language: 'en', agent: 'shop', turns: [{ customer: 'is there parking?', expect: { includes: ['free'], sources: ['faq'] } }] },
      { id: 'document', area: 'document', language: 'en', agent: 'shop', turns: [{ customer: 'how much is a screen repair', expect: { includes: ['80 EUR'], sources: ['document'] } }] },
      // wrong, from knowledge: confident-wrong
      { id: 'confident-wrong', area: 'faq', language: 'en', agent: 'shop', turns: [{ customer: 'is there parking?', expect: { includes: ['underground'] } }] },
      // wrong without knowledge: wrong, not confident
      { id: 'wrong', area: 'unknown', language: 'es', agent: 'shop', turns: [{ customer: 'do you sell wine', expect: { unknown: false } }] },
    ];
    writeFileSync(join(dir, 'cases', 'judge.json'), JSON.stringify(cases));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('counts a failed expectation as wrong, and as confident-wrong when the reply used knowledge', async () => {
    const report = await runEval(dir);
    expect(report.cases.map((c) => [c.id, c.right, c.turns[0].confidentWrong])).toEqual([
      ['right', true, false],
      ['document', true, false],
      ['confident-wrong', false, true],
      ['wrong', false, false],
    ]);
    expect({ right: report.right, total: report.total, confidentWrong: report.confidentWrong }).toEqual({ right: 2, total: 4, confidentWrong: 1 });
    expect(report.byLanguage.get('es')).toEqual({ right: 0, total: 1 });
    expect(missedTargets(report)).toEqual(expect.arrayContaining(['share right 50.0% < 90%', '1 confident-wrong answers']));
    const markdown = markdownReport([{ name: 'Held-out', about: 'A test split.', report, judged: true }], '2026-12-01');
    expect(markdown).toContain('## Held-out');
    expect(markdown).toContain('| faq | 1/2 |  | 1/2 (50.0%) |');
    expect(markdown).toContain('| unknown |  | 0/1 | 0/1 (0.0%) |');
    expect(markdown).toContain('2 cases wrong; not listed (the split is held out).');
    const development = markdownReport([{ name: 'Development', about: 'Tuned on.', report, judged: false }], '2026-12-01');
    expect(development).toContain('`confident-wrong` (faq, en, judge.json)');
  });

  it('refuses a malformed case instead of skipping it', async () => {
    writeFileSync(join(dir, 'cases', 'bad.json'), JSON.stringify([{ id: 'bad', area: 'faq', language: 'it', agent: 'shop', turns: [] }]));
    await expect(runEval(dir)).rejects.toThrow(`${basename(dir)}/cases/bad.json case bad: language must be one of en, es, pt, fr, de`);
    rmSync(join(dir, 'cases', 'bad.json'));
  });
});
