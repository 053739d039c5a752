/**
 * The factual sentences of an agent's instruction ("We are open Mon-Fri 9-5.", "Parking is free behind the building."),
 * without the sentences that tell the agent how to behave ("Answer questions about opening hours.", "Be friendly.",
 * "You are the receptionist of …"): the facts are knowledge the agent answers from, the rest is not (CONTRACT.md §11).
 */
export function instructionFacts(instruction: string): string[] {
  return sentences(instruction).filter((s) => !isDirective(s));
}

/** Sentences of a text: split at . ! ? followed by a space, and at line breaks (lists, Markdown). */
export function sentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“¿¡*-])/u)
    .map((s) => s.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim())
    .filter((s) => /\p{L}/u.test(s));
}

// A sentence that addresses the agent: an imperative, "you are/should/must…", or a rule about customers or replies. A
// word ends where no letter follows (\b does not know "é": "Você é o assistente…", "Sé amable").
const DIRECTIVE_START =
  /^(please\s+)?(answer|be|act|always|never|don'?t|do not|help|assist|collect|capture|gather|book|schedule|respond|reply|greet|ask|use|keep|make sure|ensure|try|avoid|only|if|when|politely|speak|write|talk|offer|tell|remember|note|refer|redirect|escalate|hand|pass|stay|sound|refuse|mention|explain|provide|give|your (job|role|task|goal)|as an?|sei|seien|antworte|beantworte|hilf|eres|responde|contesta|ayuda|sé|sea|sois|réponds|répondez|aide|soyez|sois|responda|ajude|seja|és|sê)(?![\p{L}\p{N}_])/iu;
// "You are the receptionist…", "You should…" address the agent; "You can park behind the building" tells the customer.
const ADDRESSES_AGENT =
  /^(you|tu|vous|usted|você|voce|du|sie)\s+(are|'re|should|must|will|shall|answer|help|assist|work|represent|speak|respond|reply|never|always|only|do not|don'?t|may not|cannot|eres|es|debes|deve|deves|es|êtes|devez|bist|sollst|sind|sollen|antwortest|hilfst|é|és)(?![\p{L}\p{N}_])/iu;

function isDirective(sentence: string): boolean {
  const s = sentence.replace(/^[^\p{L}]+/u, '');
  return DIRECTIVE_START.test(s) || ADDRESSES_AGENT.test(s);
}
