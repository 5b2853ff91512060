/**
 * IMO ship identification numbers: 7 digits, the last one a check digit
 * (DCSA vesselIMONumber, pattern `^\d{7}$`). Pure functions.
 */

/** Check digit of the first six digits: weights 7..2, sum modulo 10. */
export function imoCheckDigit(firstSix: string): number {
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(firstSix.charAt(i)) * (7 - i);
  return sum % 10;
}

/** Why `value` is not a valid IMO number, or null when it is valid. */
export function explainInvalidImoNumber(value: string): string | null {
  // DCSA carries the bare number; the "IMO " prefix of printed references is not part of it.
  if (!/^\d{7}$/.test(value)) return 'IMO number must be exactly 7 digits';
  const expected = imoCheckDigit(value);
  if (Number(value.charAt(6)) !== expected) {
    return `IMO number check digit is ${value.charAt(6)}, expected ${expected}`;
  }
  return null;
}

export function isValidImoNumber(value: string): boolean {
  return explainInvalidImoNumber(value) === null;
}
