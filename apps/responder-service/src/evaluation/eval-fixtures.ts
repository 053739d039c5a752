import type { AgentRecord } from '@parley/contracts';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DocumentPassage } from '../knowledge/document-passage';
import { LANGUAGES, isLanguage, type Language } from '../knowledge/language';

/** The rows of the evaluation table (tools/eval/README.md). */
export const AREAS = ['faq', 'document', 'instruction', 'unknown', 'lead', 'booking', 'reschedule', 'cancel', 'handoff', 'optout', 'smalltalk', 'switch'] as const;
export type Area = (typeof AREAS)[number];

export const EVENT_TYPES = [
  'lead.captured',
  'lead.updated',
  'appointment.booked',
  'appointment.rescheduled',
  'appointment.cancelled',
  'contact.opted_out',
  'contact.opted_in',
] as const;
export type EvalEventType = (typeof EVENT_TYPES)[number];

export interface TurnExpectation {
  includes?: string[];
  includes_any?: string[];
  excludes?: string[];
  unknown?: boolean;
  handoff?: boolean;
  language?: Language;
  sources?: ('faq' | 'document' | 'instruction')[];
  effects?: { type: EvalEventType; fields?: Record<string, unknown> }[];
  no_effects?: boolean;
}

export interface EvalCase {
  id: string;
  area: Area;
  language: Language;
  agent: string;
  now?: string;
  turns: { customer: string; expect: TurnExpectation }[];
  /** The file the case is in (for the report). */
  file: string;
}

/** A fixture agent: the agent record and its documents, chunked into passages. */
export interface FixtureAgent {
  agent: AgentRecord;
  documents: DocumentPassage[];
}

export interface EvalFixtures {
  agents: Map<string, FixtureAgent>;
  cases: EvalCase[];
}

const FIXTURE_TIME = '2026-01-01T00:00:00.000Z';

/**
 * Reads one split of tools/eval (`development/` or `held-out/`): its `agents/*.json` and `cases/*.json`. A malformed
 * fixture throws naming the file and case: the evaluation never silently skips a case.
 */
export function loadFixtures(splitDir: string): EvalFixtures {
  const split = basename(splitDir);
  const agents = new Map<string, FixtureAgent>();
  for (const file of jsonFiles(join(splitDir, 'agents'))) {
    const raw = JSON.parse(readFileSync(join(splitDir, 'agents', file), 'utf8')) as Partial<AgentRecord> & { documents?: { title: string; text: string }[] };
    if (!raw.name || !raw.instruction || !Array.isArray(raw.skills)) throw new Error(`${split}/agents/${file}: name, instruction and skills are required`);
    const agent: AgentRecord = {
      id: `agt_eval_${raw.name}`,
      name: raw.name,
      instruction: raw.instruction,
      greeting: raw.greeting ?? '',
      skills: raw.skills,
      faqs: raw.faqs ?? [],
      booking: raw.booking ?? null,
      version: 1,
      created_at: FIXTURE_TIME,
      updated_at: FIXTURE_TIME,
    };
    const documents = (raw.documents ?? []).flatMap((d, i) => chunkDocument(`doc_eval_${raw.name}_${i + 1}`, d.title, d.text));
    agents.set(raw.name, { agent, documents });
  }

  const cases: EvalCase[] = [];
  for (const file of jsonFiles(join(splitDir, 'cases'))) {
    const raw = JSON.parse(readFileSync(join(splitDir, 'cases', file), 'utf8')) as Omit<EvalCase, 'file'>[];
    for (const c of raw) {
      const where = `${split}/cases/${file} case ${c.id ?? '(no id)'}`;
      if (!c.id || !(AREAS as readonly string[]).includes(c.area)) throw new Error(`${where}: id and an area of ${AREAS.join(', ')} are required`);
      if (!isLanguage(c.language)) throw new Error(`${where}: language must be one of ${LANGUAGES.join(', ')}`);
      if (!agents.has(c.agent)) throw new Error(`${where}: no fixture agent "${c.agent}" in ${split}/agents`);
      if (!Array.isArray(c.turns) || c.turns.length === 0) throw new Error(`${where}: turns must not be empty`);
      for (const t of c.turns) for (const e of t.expect.effects ?? []) if (!(EVENT_TYPES as readonly string[]).includes(e.type)) throw new Error(`${where}: unknown effect ${e.type}`);
      cases.push({ ...c, file });
    }
  }
  const ids = new Set<string>();
  for (const c of cases) {
    if (ids.has(c.id)) throw new Error(`${split}/cases: case id ${c.id} appears twice`);
    ids.add(c.id);
  }
  return { agents, cases };
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
}

/**
 * A Markdown or plain-text document as passages, one per section (the text under its headings), the document's own
 * top heading left out when it repeats the title. A simple stand-in for agent-service's chunker, which the responder
 * cannot import: the fixture documents are short, so a section is a passage there too.
 */
export function chunkDocument(documentId: string, title: string, text: string): DocumentPassage[] {
  const passages: DocumentPassage[] = [];
  const trail: { depth: number; text: string }[] = [];
  let body: string[] = [];
  const flush = () => {
    const passageText = body.join('\n').trim();
    if (passageText) {
      const headings = trail.map((h) => h.text).filter((h, i) => !(i === 0 && h.toLowerCase() === title.toLowerCase()));
      passages.push({ id: `${documentId}#${passages.length}`, documentId, title, headings, text: passageText });
    }
    body = [];
  };
  for (const line of text.split('\n')) {
    const heading = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) {
      body.push(line);
      continue;
    }
    flush();
    const depth = heading[1].length;
    while (trail.length > 0 && trail[trail.length - 1].depth >= depth) trail.pop();
    trail.push({ depth, text: heading[2] });
  }
  flush();
  return passages;
}
