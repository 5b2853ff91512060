/**
 * DCSA notification signatures, as carriers send them to this service (the verification of
 * src/rest/carrier-notifications-handler.ts); the same rules sign this service's own DCSA notifications
 * (src/push/delivery-worker.ts), so they live in the domain.
 */
export {
  MIN_SECRET_BYTES,
  generateNotificationSecret,
  notificationKey,
  signNotification,
  verifyNotification,
  type SignatureCheck,
} from '../domain/dcsa/dcsa-notification-signature.js';
