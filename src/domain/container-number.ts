/**
 * ISO 6346 container numbers: owner code (3 letters), category identifier
 * (U freight container, J detachable equipment, Z trailer or chassis),
 * serial number (6 digits) and a check digit, e.g. `MSKU1234565`.
 * Pure functions: used by ingest validation and by the lookup parameters.
 */

const SHAPE = /^[A-Z]{3}[UJZ]\d{6}\d$/;

/**
 * Letter values of ISO 6346: A=10 counting upwards, skipping 11, 22 and 33
 * (multiples of 11), so that no letter is worth the modulus itself.
 */
function letterValue(letter: string): number {
  let value = 10;
  for (let c = 'A'.charCodeAt(0); c < letter.charCodeAt(0); c++) {
    value++;
    if (value % 11 === 0) value++;
  }
  return value;
}

/** Letter values by char code minus 65 (A..Z): indexed, not looked up, as ingest checks every equipment event's number. */
const LETTER_VALUES: readonly number[] = Array.from({ length: 26 }, (_, i) => letterValue(String.fromCharCode(65 + i)));

/**
 * The check digit for the first ten characters (owner code, category, serial).
 * A remainder of 10 maps to 0, as the standard prescribes (such serials
 * should not be issued, but they exist in the field). A character that is
 * neither a digit nor A-Z counts 0 (callers check the shape first).
 */
export function containerCheckDigit(firstTen: string): number {
  let sum = 0;
  for (let i = 0, weight = 1; i < 10; i++, weight *= 2) {
    const code = firstTen.charCodeAt(i);
    const value = code >= 48 && code <= 57 ? code - 48 : code >= 65 && code <= 90 ? LETTER_VALUES[code - 65]! : 0;
    sum += value * weight;
  }
  return (sum % 11) % 10;
}

/** Why `value` is not a valid ISO 6346 container number, or null when it is valid. */
export function explainInvalidContainerNumber(value: string): string | null {
  // The common case first: a well-formed number needs only its check digit checked.
  if (SHAPE.test(value)) return explainCheckDigit(value);
  if (value.length !== 11) {
    return `container number must be 11 characters (4 letters, 7 digits), got ${value.length}`;
  }
  if (value !== value.toUpperCase()) return 'container number must be upper case';
  if (!/^[A-Z]{4}/.test(value)) return 'container number must start with 4 letters (owner code and category)';
  if (!/^[A-Z]{3}[UJZ]/.test(value)) {
    return 'the 4th letter of a container number (category) must be U, J or Z';
  }
  return 'container number must end with 7 digits (serial number and check digit)';
}

function explainCheckDigit(value: string): string | null {
  const expected = containerCheckDigit(value);
  if (value.charCodeAt(10) - 48 !== expected) {
    return `container number check digit is ${value.charAt(10)}, expected ${expected}`;
  }
  return null;
}

export function isValidContainerNumber(value: string): boolean {
  return explainInvalidContainerNumber(value) === null;
}
