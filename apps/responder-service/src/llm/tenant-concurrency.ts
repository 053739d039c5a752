/**
 * How many LLM replies each tenant may have in flight in this process. One tenant's burst must not take every LLM
 * slot (or its whole bill) from the others: beyond the cap, its replies come from the deterministic engine at once.
 */
export class TenantConcurrency {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly perTenant: number) {}

  /** A release function when the tenant is under its cap, else null. Release exactly once. */
  tryAcquire(tenantId: string): (() => void) | null {
    const current = this.inFlight.get(tenantId) ?? 0;
    if (current >= this.perTenant) return null;
    this.inFlight.set(tenantId, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(tenantId) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(tenantId);
      else this.inFlight.set(tenantId, left);
    };
  }
}
