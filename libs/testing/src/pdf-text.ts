import { execFile } from 'node:child_process';

/**
 * The text of a PDF as pdf.js (through pdf-parse) reads it, in a child process: pdf.js loads its worker with a dynamic
 * import, which jest's module system does not run.
 */
export function pdfText(bytes: Buffer): Promise<string> {
  const script = `
    const { PDFParse } = require(${JSON.stringify(require.resolve('pdf-parse'))});
    const chunks = [];
    process.stdin.on('data', (c) => chunks.push(c)).on('end', async () => {
      const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
      const result = await parser.getText();
      process.stdout.write(result.text);
      await parser.destroy();
    });`;
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['-e', script], { maxBuffer: 10 * 1024 * 1024 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}: ${stderr}`)) : resolve(stdout)));
    child.stdin?.end(bytes);
  });
}
