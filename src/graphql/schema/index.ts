import { builder } from '../builder.js';
import './date-time.js';
import './location.js';
import './events.js';
import './references.js';
import './container.js';
import './exception.js';
import './shipment-tracking.js';
import './transmission.js';
import './token.js';
import './error.js';
import './webhook-subscription.js';
import './live-updates.js';
import './dcsa-events.js';
import './event-subscription.js';
import './account-feed.js';
import './tracking-request.js';

export const schema = builder.toSchema();
