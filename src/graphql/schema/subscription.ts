import { builder } from '../builder.js';

/**
 * SubscriptionRequest and Subscription are named by the spec for the planned
 * push delivery, with their fields "not shown". v1 has no push and no
 * operation that takes or returns them; the shapes below are our proposal,
 * declared so GraphiQL users can see what is coming, and are not served.
 */

export interface SubscriptionShape {
  subscriptionID: string;
  callbackUrl: string;
  carrierCode?: string;
  carrierBookingReference?: string;
  billOfLadingNumber?: string;
  equipmentReference?: string;
  createdDateTime: string;
}

export const SubscriptionRequestInput = builder.inputType('SubscriptionRequest', {
  description: 'Roadmap (push delivery, not in v1): what a client would register to receive pushed transmissions.',
  fields: (t) => ({
    callbackUrl: t.string({ required: true, description: 'HTTPS URL the service would POST transmissions to.' }),
    carrierCode: t.string(),
    carrierBookingReference: t.string(),
    billOfLadingNumber: t.string(),
    equipmentReference: t.string(),
  }),
});

export const SubscriptionType = builder.objectRef<SubscriptionShape>('Subscription').implement({
  description: 'Roadmap (push delivery, not in v1): a registered push subscription.',
  fields: (t) => ({
    subscriptionID: t.exposeString('subscriptionID'),
    callbackUrl: t.exposeString('callbackUrl'),
    carrierCode: t.exposeString('carrierCode', { nullable: true }),
    carrierBookingReference: t.exposeString('carrierBookingReference', { nullable: true }),
    billOfLadingNumber: t.exposeString('billOfLadingNumber', { nullable: true }),
    equipmentReference: t.exposeString('equipmentReference', { nullable: true }),
    createdDateTime: t.exposeString('createdDateTime'),
  }),
});
