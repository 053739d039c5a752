import { Worker } from 'node:worker_threads';
import { VerbosityLevel } from 'pdf-parse';
import { DocumentRejected } from './document-rejected';

/** A PDF that takes longer than this to read is given up (a hostile or pathological file must not hold the worker). */
const PDF_READ_TIMEOUT_MS = 60_000;

/**
 * Runs in a worker thread: pdf.js (through pdf-parse) loads its own worker module with a dynamic import and keeps the
 * CPU busy for as long as a page takes, so it gets a thread of its own that can be stopped at the deadline.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { PDFParse } = require(workerData.module);
(async () => {
  const parser = new PDFParse({ data: workerData.data, verbosity: workerData.verbosity });
  try {
    const result = await parser.getText();
    parentPort.postMessage({ pages: result.pages.map((page) => page.text) });
  } catch (err) {
    parentPort.postMessage({ error: { name: String(err && err.name), message: String(err && err.message) } });
  } finally {
    await parser.destroy().catch(() => undefined);
  }
})();
`;

type WorkerAnswer = { pages: string[] } | { error: { name: string; message: string } };

/** The text layer of each page of a PDF (no OCR: a scanned page has none). */
export function pdfPageTexts(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // pdf.js logs only errors (its warnings about odd fonts would fill the service's log).
      workerData: { module: require.resolve('pdf-parse'), data: new Uint8Array(bytes), verbosity: VerbosityLevel.ERRORS },
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new DocumentRejected('the PDF took too long to read'));
    }, PDF_READ_TIMEOUT_MS);
    const settle = () => {
      clearTimeout(timer);
      void worker.terminate();
    };
    worker.once('message', (answer: WorkerAnswer) => {
      settle();
      if ('pages' in answer) return resolve(answer.pages);
      // pdf.js's error names (errors cross the thread boundary as plain data).
      if (answer.error.name === 'PasswordException') return reject(new DocumentRejected('the PDF is password-protected'));
      if (answer.error.name === 'InvalidPDFException' || answer.error.name === 'FormatError') return reject(new DocumentRejected('the file is not a readable PDF'));
      reject(new Error(`reading the PDF failed: ${answer.error.name}: ${answer.error.message}`));
    });
    worker.once('error', (err) => {
      settle();
      reject(err);
    });
  });
}
