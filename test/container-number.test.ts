import { describe, expect, it } from 'vitest';
import { containerCheckDigit, explainInvalidContainerNumber, isValidContainerNumber } from '../src/domain/container-number.js';
import { explainInvalidImoNumber, isValidImoNumber } from '../src/domain/imo-number.js';

describe('ISO 6346 container numbers', () => {
  it.each(['CSQU3054383', 'MSKU1234565', 'APZU4812090', 'MAEU1234567'])('accepts %s', (number) => {
    expect(isValidContainerNumber(number)).toBe(true);
    expect(explainInvalidContainerNumber(number)).toBeNull();
  });

  it('accepts J (detachable equipment) and Z (trailer, chassis) categories', () => {
    for (const prefix of ['ABCJ123456', 'ABCZ123456']) {
      expect(isValidContainerNumber(`${prefix}${containerCheckDigit(prefix)}`)).toBe(true);
    }
  });

  it('maps a check remainder of 10 to check digit 0', () => {
    // MSKU000008: weighted sum modulo 11 is 10.
    expect(containerCheckDigit('MSKU000008')).toBe(0);
    expect(isValidContainerNumber('MSKU0000080')).toBe(true);
  });

  it('rejects a wrong check digit and names the expected one', () => {
    expect(isValidContainerNumber('CSQU3054384')).toBe(false);
    expect(explainInvalidContainerNumber('CSQU3054384')).toBe('container number check digit is 4, expected 3');
  });

  it.each([
    ['CSQU305438', /11 characters/],
    ['CSQU30543833', /11 characters/],
    ['csqu3054383', /upper case/],
    ['CSQX3054383', /category\) must be U, J or Z/],
    ['CS1U3054383', /start with 4 letters/],
    ['CSQU30543A3', /end with 7 digits/],
    ['CSQU 305438', /end with 7 digits/],
  ])('explains why %s is invalid', (number, reason) => {
    expect(isValidContainerNumber(number)).toBe(false);
    expect(explainInvalidContainerNumber(number)).toMatch(reason);
  });
});

describe('IMO numbers', () => {
  it.each(['9321483', '9074729', '9811127'])('accepts %s', (imo) => {
    expect(isValidImoNumber(imo)).toBe(true);
  });

  it('rejects a wrong check digit and names the expected one', () => {
    expect(explainInvalidImoNumber('9321484')).toBe('IMO number check digit is 4, expected 3');
  });

  it.each(['932148', '93214830', 'IMO9321483', '932148A'])('rejects the malformed %s', (imo) => {
    expect(isValidImoNumber(imo)).toBe(false);
    expect(explainInvalidImoNumber(imo)).toBe('IMO number must be exactly 7 digits');
  });
});
