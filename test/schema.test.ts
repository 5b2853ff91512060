import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderSchema } from '../src/graphql/print-schema.js';

describe('schema.graphql', () => {
  it('is the committed print of the Pothos schema (run `npm run schema:print` when this fails)', () => {
    const committed = readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8');
    expect(committed).toBe(renderSchema());
  });

  it('declares every named schema of the spec as a type', () => {
    const sdl = renderSchema();
    for (const name of [
      'Transmission', 'TransmissionHeader', 'ShipmentTracking', 'Location', 'Vessel', 'TransportCall',
      'DocumentReference', 'ShipmentEvent', 'TransportEvent', 'EquipmentEvent', 'Container', 'Exception',
      'Impact', 'Subscription', 'TokenResponse', 'Error',
    ]) {
      expect(sdl).toMatch(new RegExp(`^type ${name} `, 'm'));
    }
    expect(sdl).toMatch(/^input SubscriptionRequest /m);
  });
});
