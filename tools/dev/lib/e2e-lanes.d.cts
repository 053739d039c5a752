// Types of e2e-lanes.cjs for TypeScript callers.
export interface E2eLane {
  label: string;
  /** The lane's files, relative to the checkout. */
  paths: string[];
}
export function e2eLanes(root: string): E2eLane[];
export function sharesStack(text: string): boolean;
