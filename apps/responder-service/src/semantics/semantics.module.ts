import { Global, Logger, Module } from '@nestjs/common';
import type { Meaning } from '../knowledge/knowledge-match';
import { engineMeaning } from './engine-meaning';

/** The injection token of the process's Meaning (the in-process model and the languages it reads). */
export const MEANING = Symbol('MEANING');

/**
 * Loads the agent's sentence-embedding model once, at start (about a second): the reply engines match questions to
 * knowledge by meaning with it, and document passages are embedded with it when they arrive. A model that cannot be
 * loaded stops the start, saying how to fetch it (`npm run models:fetch`): an engine that silently lost its
 * understanding would answer worse with nothing to show why.
 */
@Global()
@Module({
  providers: [
    {
      provide: MEANING,
      useFactory: async (): Promise<Meaning> => {
        const started = Date.now();
        const meaning = await engineMeaning();
        new Logger('Semantics').log(`sentence-embedding model ${meaning.model} loaded in ${Date.now() - started} ms (reads ${meaning.languages.join(', ')})`);
        return meaning;
      },
    },
  ],
  exports: [MEANING],
})
export class SemanticsModule {}
