// Question words that open a question in the five languages (read without accents).
const QUESTION_START =
  /^\s*[¿¡]?\s*(what|whats|wat|when|where|why|how|who|which|do|does|did|is|are|r|can|could|will|would|should|have|has|any|que|como|cuando|donde|cuanto|cuanta|cuantos|cuantas|cual|cuales|quien|puedo|puede|pueden|podria|tienen|tiene|hay|hacen|aceptan|atienden|o que|quando|onde|quanto|quanta|qual|quais|quem|posso|pode|podem|voces|vcs|vc|tem|da|aceitam|atendem|quel|quelle|quels|quelles|comment|quand|ou|combien|pourquoi|est-ce|pouvez|peux|avez|etes|faites|acceptez|prenez|was|wie|wann|wo|wieviel|welche|welcher|welches|warum|wer|kann|kannst|konnen|habt|haben|gibt|seid|sind|nehmen|nehmt|macht|machen|bietet)\b/i;

/** The text asks something: it ends with a question mark or opens with a question word (en, es, pt, fr, de). */
export function asksQuestion(text: string): boolean {
  return /\?\s*$/.test(text.trim()) || QUESTION_START.test(text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase());
}

/**
 * The questions of a message with more than one sentence ("is there an elevator? my knees are bad" → "is there an
 * elevator?"): what the customer asks, without the context around it. Empty for a message of one sentence.
 */
export function questionSentences(text: string): string[] {
  const parts = text
    // an emoji ends a sentence as a full stop does ("my persian is a nightmare to brush 😩 do you take kitties?")
    .split(/(?<=[?!.])\s+|\n+|\s*\p{Extended_Pictographic}[\p{Extended_Pictographic}\u{FE0F}\u{200D}\s]*/u)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  return parts.length > 1 ? parts.filter(asksQuestion) : [];
}
