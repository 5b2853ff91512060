import type { z } from 'zod';
import type { BundleIssue } from '../domain/bundle.js';

/**
 * Turning zod issues into BundleIssues: a JSON path a person can find in
 * the file (`events[3].transportCall.UNLocationCode`) and a message that
 * reads after it.
 */

/** At most this many issues are listed; a bundle that bad needs fixing at the source. */
export const MAX_LISTED_ISSUES = 50;

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}...` : value}"`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/**
 * Per-parse zod error map for the generic issues; schemas that need a
 * specific message (patterns, check digits, timestamps) carry their own,
 * which takes precedence.
 */
export const issueMessage: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${EXPECTED[issue.expected] ?? issue.expected}, got ${describeValue(issue.input)}`;
    case 'invalid_value':
      if (issue.input === undefined) return `is required: one of ${issue.values.map(String).join(', ')}`;
      return `must be one of ${issue.values.map(String).join(', ')}; got ${describeValue(issue.input)}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${String(issue.maximum)} characters`;
      if (issue.origin === 'array') return `must have at most ${String(issue.maximum)} entries`;
      return `must be at most ${String(issue.maximum)}`;
    case 'too_small':
      if (issue.origin === 'string') {
        return issue.minimum === 1 ? 'must not be empty' : `must be at least ${String(issue.minimum)} characters`;
      }
      if (issue.origin === 'array') return `must have at least ${String(issue.minimum)} entries`;
      return `must be at least ${String(issue.minimum)}`;
    case 'invalid_union':
      // A discriminated union (eventType) reports the values it knows; zod types them loosely.
      if ('discriminator' in issue && typeof issue.discriminator === 'string' && Array.isArray(issue.options)) {
        const known = issue.options.map(String).join(', ');
        // The issue's input is the whole object; the offending value is its discriminator.
        const value = (issue.input as Record<string, unknown> | undefined)?.[issue.discriminator];
        return value === undefined ? `is required: one of ${known}` : `must be one of ${known}; got ${describeValue(value)}`;
      }
      return undefined;
    default:
      return undefined;
  }
};

/** Collects issues up to MAX_LISTED_ISSUES; `full` tells callers to stop validating. */
export class IssueList {
  readonly issues: BundleIssue[] = [];
  private truncated = false;

  get full(): boolean {
    return this.issues.length >= MAX_LISTED_ISSUES;
  }

  get isEmpty(): boolean {
    return this.issues.length === 0;
  }

  add(path: string, message: string): void {
    if (this.full) {
      this.truncated = true;
      return;
    }
    this.issues.push({ path, message });
  }

  /** Records that validation stopped early because the list is full. */
  stopped(): void {
    this.truncated = true;
  }

  /** Adds zod issues below `prefix`; an unknown-keys issue becomes one issue per key, at that key. */
  addZod(zodIssues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[]): void {
    for (const issue of zodIssues) {
      const path = [...prefix, ...issue.path];
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) this.add(formatPath([...path, key]), 'is not a known field');
      } else {
        this.add(formatPath(path), issue.message);
      }
    }
  }

  /** The issues, with a closing note when some were left out. */
  result(): BundleIssue[] {
    if (!this.truncated) return this.issues;
    return [...this.issues, { path: '', message: `validation stopped after ${MAX_LISTED_ISSUES} issues; there may be more` }];
  }
}
