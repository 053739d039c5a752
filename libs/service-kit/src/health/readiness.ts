import { Injectable } from '@nestjs/common';

export type ReadinessCheck = () => Promise<void> | void;

/** Named checks behind `GET /health/ready`; each module registers what it depends on. */
@Injectable()
export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();

  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  /** Runs every check with a time limit; resolves with each check's outcome. */
  async run(timeoutMs = 2000): Promise<{ ready: boolean; checks: Record<string, { ok: boolean; error?: string }> }> {
    const results = await Promise.all(
      [...this.checks.entries()].map(async ([name, check]) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            Promise.resolve().then(check),
            new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs))),
          ]);
          return [name, { ok: true }] as const;
        } catch (err) {
          return [name, { ok: false, error: err instanceof Error ? err.message : String(err) }] as const;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    return { ready: results.every(([, r]) => r.ok), checks: Object.fromEntries(results) };
  }
}
