import { GraphQLDeferDirective, GraphQLStreamDirective } from '@graphql-tools/utils';
import { specifiedDirectives } from 'graphql';
import { builder } from '../builder.js';
import './date-time.js';
import './location.js';
import './events.js';
import './references.js';
import './container.js';
import './exception.js';
import './predicted-arrival.js';
import './shipment-tracking.js';
import './transmission.js';
import './token.js';
import './error.js';
import './webhook-subscription.js';
import './live-updates.js';
import './dcsa-events.js';
import './event-subscription.js';
import './event-subscription-deliveries.js';
import './account-feed.js';
import './tracking-request.js';
import './rate-limit.js';
import './node.js';

/**
 * `@defer` and `@stream` are declared in the schema itself, so that what /graphql serves, what the executor runs
 * and schema.graphql are the same schema (Yoga's defer-stream plugin, src/app/create-app.ts, would add them to
 * Yoga's copy only).
 */
export const schema = builder.toSchema({ directives: [...specifiedDirectives, GraphQLDeferDirective, GraphQLStreamDirective] });
