import { InvalidArgumentError } from 'commander';
import { EXCEPTION_TYPES, WEBHOOK_DELIVERY_STATUSES } from '../domain/types.js';

/** Parsers of the commands' option values: each refuses a bad value with the allowed ones named (exit 2). */

/** An option given twice is an error (commander would keep the last silently). */
export function once<T>(parse: (value: string) => T): (value: string, previous: T | undefined) => T {
  return (value, previous) => {
    if (previous !== undefined) throw new InvalidArgumentError('given more than once');
    return parse(value);
  };
}

export function nonEmpty(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('must not be empty');
  return value;
}

export function exceptionStatus(value: string): 'DETECTED' | 'RESOLVED' {
  const status = value.trim().toUpperCase();
  if (status !== 'DETECTED' && status !== 'RESOLVED') throw new InvalidArgumentError('must be DETECTED or RESOLVED');
  return status;
}

export function subscriptionStatus(value: string): 'ACTIVE' | 'DISABLED' {
  const status = value.trim().toUpperCase();
  if (status !== 'ACTIVE' && status !== 'DISABLED') throw new InvalidArgumentError('must be ACTIVE or DISABLED');
  return status;
}

export function deliveryStatus(value: string): string {
  const status = value.trim().toUpperCase();
  if (!(WEBHOOK_DELIVERY_STATUSES as readonly string[]).includes(status)) {
    throw new InvalidArgumentError(`must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}`);
  }
  return status;
}

/** An exceptionType filter: one of the types the service raises, else a usage error naming them (exit 2). */
export function exceptionType(value: string): string {
  const type = value.trim().toUpperCase();
  if (!(EXCEPTION_TYPES as readonly string[]).includes(type))
    throw new InvalidArgumentError(`must be one of ${EXCEPTION_TYPES.join(', ')}`);
  return type;
}

export function limit(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 10_000) {
    throw new InvalidArgumentError('must be an integer from 1 to 10000');
  }
  return Number(value);
}

export function note(value: string): string {
  const text = value.trim();
  if (text === '') throw new InvalidArgumentError('must not be empty');
  if (text.length > 1000) throw new InvalidArgumentError('must be at most 1000 characters');
  return text;
}

/** A reason stored in a 500-character column. */
export function reason(value: string): string {
  const text = note(value);
  if (text.length > 500) throw new InvalidArgumentError('must be at most 500 characters');
  return text;
}

/** `tracking ingest --format`: dcsa (ingest bundles) or an EDI format (docs/carriers.md "EDI"). */
export function ingestFormat(value: string): string {
  if (!['dcsa', 'x12-315', 'iftsta'].includes(value)) throw new InvalidArgumentError('must be dcsa, x12-315 or iftsta');
  return value;
}

/** A wait in whole seconds, 0 to 3600. */
export function seconds(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 3600) throw new InvalidArgumentError('must be an integer from 0 to 3600');
  return Number(value);
}
