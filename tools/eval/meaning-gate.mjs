#!/usr/bin/env node
/**
 * How the meaning path sees the development split's one-turn knowledge and unknown questions in one language: for each,
 * the passage nearest by meaning, its cosine, its margin over the next, the required topics it lacks and the question's
 * words neither in it nor next to one of its words (knowledge-match.ts, wordsNotCovered). What to read when choosing
 * how the engine decides that a passage answers.
 *
 *   node tools/eval/meaning-gate.mjs            # English
 *   node tools/eval/meaning-gate.mjs es
 *
 * The development split only, by design: the held-out split is never looked at case by case (tools/eval/held-out/README.md).
 */
import path from 'node:path';
import { ROOT, require } from './register-ts.mjs';

const language = process.argv[2] ?? 'en';
const { loadFixtures } = require(path.join(ROOT, 'apps/responder-service/src/evaluation/eval-fixtures.ts'));
const { engineMeaning } = require(path.join(ROOT, 'apps/responder-service/src/semantics/engine-meaning.ts'));
const { passagesByMeaning, wordsNotCovered } = require(path.join(ROOT, 'apps/responder-service/src/knowledge/knowledge-match.ts'));

const meaning = await engineMeaning();
if (!meaning.languages.includes(language)) {
  console.log(`The model does not read ${language}: its questions are matched by their words only.`);
  process.exit(0);
}
const fixtures = loadFixtures(path.join(ROOT, 'tools/eval/development'));
const groups = { right: [], wrong: [], unknown: [] };
for (const c of fixtures.cases) {
  const knowledgeCase = ['faq', 'document', 'instruction'].includes(c.area);
  if (c.language !== language || c.turns.length !== 1 || !(knowledgeCase || c.area === 'unknown')) continue;
  const [turn] = c.turns;
  const fixture = fixtures.agents.get(c.agent);
  const knowledge = { faqs: fixture.agent.faqs, documents: fixture.documents, instruction: fixture.agent.instruction };
  const [first, second] = await passagesByMeaning(turn.customer, knowledge, language, meaning, 2);
  if (!first) continue;
  const expected = turn.expect.includes ?? [];
  const holds = expected.length > 0 && expected.every((s) => `${first.title} ${first.text}`.toLowerCase().includes(s.toLowerCase()));
  const gaps = await wordsNotCovered(turn.customer, first, language, meaning);
  const row = { question: turn.customer, cosine: first.score, margin: first.score - (second?.score ?? 0), ...gaps };
  groups[!knowledgeCase ? 'unknown' : holds ? 'right' : 'wrong'].push(row);
}

const line = (r) =>
  `  cos ${r.cosine.toFixed(2)}  margin ${r.margin.toFixed(2)}  lacks [${r.concepts.join(' ')}]  unaligned [${r.unaligned.join(' ')}] of ${r.missing.length}  ${r.question}`;
for (const [title, rows] of [
  ['Knowledge questions whose nearest passage answers them', groups.right],
  ['Knowledge questions whose nearest passage does not', groups.wrong],
  ['Questions the knowledge cannot answer (must not be answered)', groups.unknown],
]) {
  console.log(`${title} (${rows.length}):`);
  for (const r of rows.sort((a, b) => b.cosine - a.cosine)) console.log(line(r));
}
