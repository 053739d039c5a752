import type { DocumentPassage } from './document-passage';
import { instructionFacts } from './instruction-facts';
import { ANSWER_THRESHOLD, answeringPassages, rankKnowledge, type KnowledgeSet } from './rank-knowledge';

const dental: KnowledgeSet = {
  instruction:
    'You are the friendly receptionist of Bloom Dental. Answer questions about opening hours. Be friendly. We are open Mon-Fri 9-5. Parking is free behind the building.',
  faqs: [
    { question: 'Do you accept insurance?', answer: 'Yes, we accept Delta Dental, Cigna, Aetna and MetLife.' },
    { question: 'How much is a cleaning?', answer: 'A cleaning costs 90 USD.' },
  ],
  documents: [
    { id: 'doc_1#0', documentId: 'doc_1', title: 'Price list', headings: ['Whitening'], text: 'In-office teeth whitening takes one hour and costs 350 USD.' },
    { id: 'doc_1#1', documentId: 'doc_1', title: 'Price list', headings: ['Children'], text: 'Children under 12 are seen on Wednesday afternoons.' },
  ],
};

const best = (query: string, knowledge = dental, language: 'en' | 'es' | 'de' = 'en') => answeringPassages(query, knowledge, language)[0]?.id ?? null;

describe('rankKnowledge', () => {
  it("keeps the instruction's facts and drops what it tells the agent to do", () => {
    expect(instructionFacts(dental.instruction)).toEqual(['We are open Mon-Fri 9-5.', 'Parking is free behind the building.']);
    expect(instructionFacts('Answer questions about opening hours. Be friendly and professional.')).toEqual([]);
    expect(instructionFacts('Du bist der Assistent der Praxis. Wir haben montags bis freitags geöffnet.')).toEqual(['Wir haben montags bis freitags geöffnet.']);
    // Portuguese addresses the agent as "você é" and "és", and tells it "sê simpático" (an accent ends the word too).
    expect(instructionFacts('Você é o assistente da Clínica Sorriso, em São Paulo. Atendemos de segunda a sexta.')).toEqual(['Atendemos de segunda a sexta.']);
    expect(instructionFacts('És o assistente da Onda Azul. Sê simpático. Estamos abertos todos os dias.')).toEqual(['Estamos abertos todos os dias.']);
    expect(instructionFacts('Eres el asistente de la clínica. Sé amable. Abrimos a las 9.')).toEqual(['Abrimos a las 9.']);
  });

  it('finds FAQs, document passages and instruction facts through typos and chat spelling', () => {
    expect(best('wat r ur hrs')).toBe('instruction-1');
    expect(best('is cigna ok for you guys')).toBe('faq-1');
    expect(best('do u take insurence')).toBe('faq-1');
    expect(best('where can i park')).toBe('instruction-2');
    expect(best('how much is teeth whitening')).toBe('doc_1#0');
    expect(best('do you see kids')).toBe('doc_1#1');
    expect(best('how much 4 a cleaning')).toBe('faq-2');
  });

  it('reads any word as a word, JavaScript property names included', () => {
    expect(answeringPassages('constructor toString __proto__ hasOwnProperty?', dental, 'en')).toEqual([]);
    expect(best('constructor, how much is teeth whitening')).toBe('doc_1#0');
  });

  it('answers nothing when no passage covers the question, even one sharing a word with it', () => {
    for (const unknown of ['can you fix my car brakes', 'do you sell wine', 'how much is a car wash', 'is the dentist married']) {
      expect({ unknown, answers: answeringPassages(unknown, dental, 'en') }).toEqual({ unknown, answers: [] });
    }
  });

  it('scores each passage by the share of the question it covers and ranks every type together', () => {
    const ranked = rankKnowledge('how much is a cleaning', dental, 'en');
    expect(ranked[0]).toMatchObject({ type: 'faq', id: 'faq-2', title: 'How much is a cleaning?', text: 'A cleaning costs 90 USD.', language: 'en' });
    expect(ranked[0].score).toBeGreaterThanOrEqual(ANSWER_THRESHOLD);
    expect(ranked.map((p) => p.type)).toContain('document');
    expect(ranked.every((p, i) => i === 0 || p.score <= ranked[i - 1].score)).toBe(true);
  });

  it('matches knowledge in the language it is written in, with that language’s stems and stop words', () => {
    const clinica: KnowledgeSet = {
      instruction: 'Eres la recepcionista de la Clínica Sonrisa. Abrimos de lunes a viernes de 9 a 18 h.',
      faqs: [{ question: '¿Aceptan seguros médicos?', answer: 'Sí, trabajamos con Sanitas, Adeslas y DKV.' }],
    };
    expect(best('hola, a qué hora abren?', clinica, 'es')).toBe('instruction-1');
    expect(best('trabajan con adeslas?', clinica, 'es')).toBe('faq-1');
    expect(best('¿reparan coches?', clinica, 'es')).toBeNull();
    const passages: DocumentPassage[] = [{ id: 'doc_2#0', documentId: 'doc_2', title: 'Praxis', headings: ['Parken'], text: 'Parkplätze gibt es im Hof hinter der Praxis.' }];
    expect(best('kann man bei euch parken?', { instruction: 'Sei freundlich.', faqs: [], documents: passages }, 'de')).toBe('doc_2#0');
  });
});
