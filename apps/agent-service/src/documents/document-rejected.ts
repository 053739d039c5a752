/** Why a document cannot be indexed: the message becomes the document's `error`. */
export class DocumentRejected extends Error {}
