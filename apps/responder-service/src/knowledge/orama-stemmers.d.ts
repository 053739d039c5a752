// @orama/stemmers and @orama/stopwords publish their languages as package `exports` subpaths, which this repository's
// `moduleResolution: node` does not read for types (Node and Jest resolve them at run time). Their shapes, from dist/*.d.ts.
declare module '@orama/stemmers/*' {
  export function stemmer(word: string): string;
  export const language: string;
}
declare module '@orama/stopwords/*' {
  export const stopwords: string[];
}
