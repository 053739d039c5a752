// The shapes every service's request-reply patterns share. A file of its own so that `rpc.ts`, which gathers the
// services' patterns, and the `<service>.rpc.ts` files that use these shapes do not import each other.

/** Every request carries the caller's tenant; the owning service scopes every read and write by it. */
export interface TenantScoped {
  tenant_id: string;
}

export interface ListQuery {
  limit: number;
  cursor: string | null;
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}
