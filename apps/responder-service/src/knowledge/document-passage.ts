import type { VectorSet } from '../semantics/vector-set';

/**
 * One indexed passage of an agent's document (CONTRACT.md §11), as the responder's read model holds it.
 * agent-service owns documents and their processing; it announces each document's passages on `document.changed`,
 * and the responder keeps them per agent so the reply engines can rank them beside FAQs and instruction sentences.
 */
export interface DocumentPassage {
  /** Stable id of the passage: `${document_id}#${index}`. */
  id: string;
  documentId: string;
  /** The document's title. */
  title: string;
  /** The headings above the passage, outermost first (`["Prices", "Whitening"]`); empty when there are none. */
  headings: string[];
  text: string;
  /** The passage's views in the model's space (semantics/semantic-index.ts `passageViews`), stored when it was applied. */
  vectors?: VectorSet;
}
