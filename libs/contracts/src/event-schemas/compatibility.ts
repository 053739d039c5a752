import type { JsonSchema } from './json-schema';

export interface BreakingChange {
  /** Where in the event, e.g. `data.status`. */
  path: string;
  change: string;
}

/** Keywords that restrict values: any change to them can reject what was valid or admit what consumers never saw. */
const CONSTRAINTS = ['format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems'];

/**
 * The changes from `previous` to `next` that would break a consumer, within one event version. Both directions
 * matter while a topic holds messages of both: a consumer built on `previous` reads what `next` produces, and a
 * consumer built on `next` replays what `previous` produced. So the only safe change is a new optional property
 * (consumers ignore fields they do not know); a removed, renamed, newly required or re-typed field, and an enum
 * or union that gained or lost a member, each need a new version.
 */
export function findBreakingChanges(previous: JsonSchema, next: JsonSchema, path = ''): BreakingChange[] {
  const prevBranches = unionBranches(previous);
  const nextBranches = unionBranches(next);
  if (prevBranches.length > 1 || nextBranches.length > 1) return compareUnions(prevBranches, nextBranches, path);

  const changes: BreakingChange[] = [];
  const at = path || '(event)';
  const report = (change: string) => changes.push({ path: at, change });

  const [lost, gained] = difference(typesOf(previous), typesOf(next));
  if (lost.length) report(`type narrowed: no longer accepts ${lost.join(', ')}`);
  if (gained.length) report(`type widened: now also ${gained.join(', ')}, which consumers of the previous schema do not expect`);

  const prevValues = allowedValues(previous);
  const nextValues = allowedValues(next);
  if (prevValues && !nextValues) report('values widened: no longer limited to ' + prevValues.map(show).join(', '));
  else if (!prevValues && nextValues) report('values narrowed: now limited to ' + nextValues.map(show).join(', '));
  else if (prevValues && nextValues) {
    const [removed, added] = difference(prevValues.map(show), nextValues.map(show));
    if (removed.length) report(`values removed: ${removed.join(', ')}`);
    if (added.length) report(`values added: ${added.join(', ')} (consumers of the previous schema do not handle them)`);
  }

  for (const keyword of CONSTRAINTS) {
    if (show(previous[keyword]) !== show(next[keyword])) report(`${keyword} changed from ${show(previous[keyword])} to ${show(next[keyword])}`);
  }

  changes.push(...compareObjects(previous, next, path));
  changes.push(...compareArrays(previous, next, path));
  return changes;
}

function compareObjects(previous: JsonSchema, next: JsonSchema, path: string): BreakingChange[] {
  const changes: BreakingChange[] = [];
  const prevProps = previous.properties ?? {};
  const nextProps = next.properties ?? {};
  const prevRequired = new Set(previous.required ?? []);
  const nextRequired = new Set(next.required ?? []);
  for (const [name, prevProp] of Object.entries(prevProps)) {
    const child = join(path, name);
    const nextProp = nextProps[name];
    if (!nextProp) {
      changes.push({ path: child, change: prevRequired.has(name) ? 'required property removed or renamed' : 'optional property removed or renamed' });
      continue;
    }
    if (prevRequired.has(name) && !nextRequired.has(name)) changes.push({ path: child, change: 'no longer required: consumers of the previous schema rely on it' });
    if (!prevRequired.has(name) && nextRequired.has(name)) changes.push({ path: child, change: 'newly required: messages of the previous schema lack it' });
    changes.push(...findBreakingChanges(prevProp, nextProp, child));
  }
  for (const name of Object.keys(nextProps)) {
    if (!(name in prevProps) && nextRequired.has(name)) changes.push({ path: join(path, name), change: 'new required property: messages of the previous schema lack it' });
  }
  const prevExtra = previous.additionalProperties;
  const nextExtra = next.additionalProperties;
  if (typeof prevExtra === 'object' && typeof nextExtra === 'object') changes.push(...findBreakingChanges(prevExtra, nextExtra, join(path, '*')));
  else if (typeof prevExtra === 'object' && nextExtra === false) changes.push({ path: path || '(event)', change: 'additional properties no longer allowed' });
  return changes;
}

function compareArrays(previous: JsonSchema, next: JsonSchema, path: string): BreakingChange[] {
  const prevItems = previous.items;
  const nextItems = next.items;
  if (!prevItems || !nextItems) return [];
  if (Array.isArray(prevItems) !== Array.isArray(nextItems)) return [{ path: `${path}[]`, change: 'items changed between a list and a tuple' }];
  if (Array.isArray(prevItems) && Array.isArray(nextItems)) {
    if (prevItems.length !== nextItems.length) return [{ path: `${path}[]`, change: `tuple length changed from ${prevItems.length} to ${nextItems.length}` }];
    return prevItems.flatMap((item, i) => findBreakingChanges(item, nextItems[i], `${path}[${i}]`));
  }
  return findBreakingChanges(prevItems as JsonSchema, nextItems as JsonSchema, `${path}[]`);
}

/** Each member of a union must still be there, unchanged (or only added to), and no member may be new. */
function compareUnions(prevBranches: JsonSchema[], nextBranches: JsonSchema[], path: string): BreakingChange[] {
  const changes: BreakingChange[] = [];
  const at = path || '(event)';
  const matched = new Set<number>();
  for (const branch of prevBranches) {
    const match = nextBranches.findIndex((candidate, i) => !matched.has(i) && findBreakingChanges(branch, candidate, path).length === 0);
    if (match >= 0) matched.add(match);
    else changes.push({ path: at, change: `union member removed or changed: ${summarize(branch)}` });
  }
  nextBranches.forEach((branch, i) => {
    if (!matched.has(i)) changes.push({ path: at, change: `union member added: ${summarize(branch)} (consumers of the previous schema do not handle it)` });
  });
  return changes;
}

function unionBranches(schema: JsonSchema): JsonSchema[] {
  return schema.anyOf ?? schema.oneOf ?? [schema];
}

function typesOf(schema: JsonSchema): string[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

function allowedValues(schema: JsonSchema): unknown[] | undefined {
  if ('const' in schema) return [schema.const];
  return schema.enum;
}

function difference(previous: string[], next: string[]): [lost: string[], gained: string[]] {
  return [previous.filter((v) => !next.includes(v)), next.filter((v) => !previous.includes(v))];
}

function summarize(schema: JsonSchema): string {
  const props = schema.properties;
  if (props) return `{${Object.entries(props).map(([k, v]) => ('const' in v ? `${k}: ${show(v.const)}` : k)).join(', ')}}`;
  return show(allowedValues(schema) ?? schema.type ?? 'any');
}

function show(value: unknown): string {
  return value === undefined ? 'none' : JSON.stringify(value);
}

function join(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}
