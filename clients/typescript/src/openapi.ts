/* Generated from /openapi.json by `npm run -s client:types`; do not edit. */

export interface paths {
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get an access token
         * @description Exchanges client credentials for a bearer token (OAuth 2.0 client credentials, RFC 6749). The credentials go in the form body (client_id, client_secret) or in HTTP Basic, not both. Cache the token and reuse it until shortly before `expires_in` runs out; there is no refresh token. Failed client authentications are rate-limited per (client_id, address) and per address, and each client has a quota of tokens (docs/errors.md: Quotas and rate limits): both answer 429.
         */
        post: operations["issueToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/shipments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Look up a shipment by reference
         * @description The current snapshot of one shipment, by (a) `carrierCode` + `carrierBookingReference`, (b) `billOfLadingNumber` or (c) `equipmentReference`, alone or with (a) or (b); combined parameters must all match one shipment. A container number is reused across shipments: `equipmentReference` alone answers, among the shipments of that container the client's account may see, the one where the container moved last.
         *
         *     Optional fields without a value are omitted; null appears only in the identifier fields that are always carried, `triggeredByEvent`, `latestEvent` of a container without events and the date keys of `references`. Poll at a cadence suited to the shipment; detect change by an `eventClassifierCode` turning `ACT` and by `exceptionID`, and de-duplicate on `transmissionID`. Authentication comes first: an unauthenticated request gets 401 even when its parameters are also invalid. Each client has a quota of lookups (docs/errors.md: Quotas and rate limits), told in the RateLimit headers of every answer to an authenticated request.
         */
        get: operations["lookUpShipment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your subscriptions
         * @description Every webhook subscription of your client, oldest first, with its status and filters (never its secret).
         */
        get: operations["listSubscriptions"];
        put?: never;
        /**
         * Subscribe to a shipment
         * @description The shipment's changes are POSTed to `callbackUrl` as Transmissions (the lookup's body) with `triggerType` and `triggeredByEvent` set, signed in `Tracking-Signature` (see docs/push.md). The signing secret is returned this once.
         */
        post: operations["createSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/subscriptions/{subscriptionID}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription (yours: another client's is 404). */
                subscriptionID: string;
            };
            cookie?: never;
        };
        /**
         * One subscription
         * @description The subscription, with its status and filters (never its secret); another client's is 404.
         */
        get: operations["getSubscription"];
        put?: never;
        post?: never;
        /**
         * Unsubscribe
         * @description Stops and removes the subscription; its pending deliveries are given up.
         */
        delete: operations["deleteSubscription"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/subscriptions/{subscriptionID}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription (yours: another client's is 404). */
                subscriptionID: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * New signing secret
         * @description A new secret, returned this once. For `overlapSeconds` deliveries carry a signature with the previous secret too, so your receiver can switch without dropping deliveries.
         */
        post: operations["rotateSubscriptionSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/subscriptions/{subscriptionID}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription (yours: another client's is 404). */
                subscriptionID: string;
            };
            cookie?: never;
        };
        /**
         * The delivery log
         * @description The delivery attempts of the subscription, newest first: each delivery's status (PENDING, DELIVERED, FAILED), its attempts, the last answer of your receiver and when it is tried next.
         */
        get: operations["listDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What changed for your account's shipments
         * @description Without `after`: every shipment your account sees, each once, at its current version (`changes` empty), in pages. The last page (`hasMore` false) hands out the `next` cursor to poll from: the shipments that changed since the listing began, with what changed (the triggers webhooks get), in commit order, grouped by shipment per page; GRANTED when your account was given a shipment, REVOKED when it lost one (such an entry shows the shipment's identifiers only, no version or snapshot, once your account no longer sees it). Cursors are opaque, and good on every instance and after restarts for as long as the changes after them are kept (7 days; older: 410, start again without `after`). See docs/account-feed.md.
         */
        get: operations["listAccountChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/subscriptions/{subscriptionID}/test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription (yours: another client's is 404). */
                subscriptionID: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test delivery now
         * @description A signed delivery of a current snapshot (the subscription's shipment; for an account-wide subscription the shipment that changed last), with `Tracking-Test: true` and triggerType MANUAL_TRIGGER, sent while you wait (up to the webhook timeout); answers with the receiver's status and latency. Not recorded in the delivery log.
         */
        post: operations["testSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/subscriptions/{subscriptionID}/deliveries/{deliveryID}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription (yours: another client's is 404). */
                subscriptionID: string;
                /** @description A delivery of the delivery log. */
                deliveryID: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a past delivery again now
         * @description The same delivery ID (Tracking-Delivery-ID) and transmissionID, the current snapshot, `Tracking-Redelivery: true`; answers with the receiver's status and latency, and records the attempt in the delivery log (a 2xx makes a failed delivery DELIVERED). A delivery still pending is sent by the queue in its turn (409).
         */
        post: operations["redeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/tracking-requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your tracking requests
         * @description The tracking requests of your client, oldest first, a page at a time (Next-Page-Cursor), stopped ones included.
         */
        get: operations["listTrackingRequests"];
        put?: never;
        /**
         * Track a reference
         * @description The service asks the carrier's DCSA events endpoint for the reference and follows it: PENDING, then TRACKING once the carrier has events (the shipment is then served to your accounts: GET /v2/shipments), or AWAITING_CARRIER_DATA and, after the give-up time, FAILED. Asking again for a reference you track returns your request (200) instead of a second one.
         */
        post: operations["createTrackingRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/tracking-requests/{trackingRequestID}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The tracking request (yours: another client's is 404). */
                trackingRequestID: string;
            };
            cookie?: never;
        };
        /**
         * One tracking request
         * @description Its status, the shipment once found and when the carrier is asked next; another client's request is 404.
         */
        get: operations["getTrackingRequest"];
        put?: never;
        post?: never;
        /**
         * Stop tracking
         * @description The request turns STOPPED (stopReason DELETED); the shipment stays visible to your accounts.
         */
        delete: operations["stopTrackingRequest"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/carrier-notifications/{carrierCode}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A carrier pushes events (DCSA 2.2 notification)
         * @description The callbackUrl of a carrier's DCSA Track & Trace 2.2 event subscription. The body must be signed: `Notification-Signature: sha256=<hex HMAC-SHA256 of the exact body bytes>`, keyed with the decoded bytes of the carrier's Base64 secret (during a rotation's overlap, the previous secret verifies too). The events are ingested in one transaction (idempotent on eventID: a replay is answered 204 and changes nothing); 204 only after the commit.
         */
        post: operations["receiveCarrierNotification"];
        delete?: never;
        options?: never;
        /**
         * The callback URL check
         * @description DCSA publishers check a callback URL with HEAD before they send to it.
         */
        head: operations["checkCarrierNotificationUrl"];
        patch?: never;
        trace?: never;
    };
    "/v2/operator/ingest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Load an ingest bundle (tracking ingest over HTTP)
         * @description Validated as it streams, written in one transaction (nothing of an invalid bundle), idempotent on eventID. Needs the tracking-operator.ingest scope.
         */
        post: operations["ingestBundle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Token signing keys
         * @description The public keys that verify access tokens (ES256 JWTs, RFC 9068): for clients that check tokens themselves.
         */
        get: operations["getSigningKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description Answers while the process runs, without looking at the database.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description Whether the database answers: take the instance out of rotation on 503.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find events (DCSA Track & Trace 2.2)
         * @description The events of the shipments your account may see, in DCSA 2.2 spelling, filtered as the standard defines (every filter given must hold; a list matches any of its values), one page at a time. Events whose codes the 2.2 enums lack are not published here (they are in the lookup).
         */
        get: operations["dcsaEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/event-subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your event subscriptions (DCSA Track & Trace 2.2)
         * @description The event subscriptions of your client, a page at a time (DCSA 2.2 cursor paging), without their secrets.
         */
        get: operations["dcsaEventSubscriptions"];
        put?: never;
        /**
         * Create an event subscription (DCSA Track & Trace 2.2)
         * @description The events that pass the filters are POSTed to callbackUrl as they are stored, as JSON arrays, signed in `Notification-Signature: sha256=<hex HMAC-SHA256 of the body under the Base64-decoded secret>`, with `Subscription-ID` and `API-Version`; the callback URL must answer a HEAD with 2xx before the first one. Not in the standard: a `carrierCode` filter. Counts toward the per-client subscription cap.
         */
        post: operations["dcsaCreateEventSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/event-subscriptions/{subscriptionID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One of your event subscriptions
         * @description The subscription's callback URL and filters, without its secret; another client's is 404.
         */
        get: operations["dcsaEventSubscription"];
        /**
         * Replace the callback URL and filters of an event subscription
         * @description The body is the whole subscription without its secret; a new callback URL is checked (HEAD) again.
         */
        put: operations["dcsaUpdateEventSubscription"];
        post?: never;
        /**
         * Stop an event subscription
         * @description Deletes the subscription: nothing more is sent to its callback URL, its pending notifications given up.
         */
        delete: operations["dcsaDeleteEventSubscription"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/event-subscriptions/{subscriptionID}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The delivery log of an event subscription
         * @description Not in the DCSA standard: the notifications sent to the subscription, newest first, as `GET /v2/subscriptions/{subscriptionID}/deliveries` lists a webhook subscription's: each one's status (PENDING, DELIVERED, FAILED), its attempts, the last answer of your receiver and when it is tried next. A webhook subscription's id is 404 here, as another client's is.
         */
        get: operations["dcsaEventSubscriptionDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/event-subscriptions/{subscriptionID}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Reset the secret of an event subscription
         * @description Notifications are signed with the new secret from the next one on.
         */
        put: operations["dcsaUpdateEventSubscriptionSecret"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description Why a transmission was sent.
         *
         *     - `EVENT_TRIGGER`: A milestone newly reported or flipped to ACT (push).
         *     - `EXCEPTION_DETECTED`: A new exception raised (push).
         *     - `EXCEPTION_RESOLVED`: An exception resolved (push).
         *     - `GRANTED`: The shipment was given to the subscriber's account (account feed and account-wide webhooks).
         *     - `MANUAL_TRIGGER`: Full current snapshot; the only value returned by the lookup in v1.
         *     - `PREDICTED_ARRIVAL`: The service's predicted arrival moved by more than the subscriber's predictedArrivalShiftHours, or first became later than the carrier's planned arrival by the subscriber's predictedLatenessHours before the carrier's own ETA did (opt-in, webhooks and live updates).
         *     - `REVOKED`: The shipment was taken from the subscriber's account: identifiers only (account feed and account-wide webhooks).
         *     - `SCHEDULED_TRIGGER`: Periodic refresh of a push subscription, at its scheduled interval.
         *     - `SHIPMENT_MERGED`: The shipment, created from a tracked reference standing in for its booking, took its real booking: the two are one shipment, and the former reference still finds it (push).
         * @enum {string}
         */
        TriggerType: "EVENT_TRIGGER" | "EXCEPTION_DETECTED" | "EXCEPTION_RESOLVED" | "GRANTED" | "MANUAL_TRIGGER" | "PREDICTED_ARRIVAL" | "REVOKED" | "SCHEDULED_TRIGGER" | "SHIPMENT_MERGED";
        /** @description Metadata about this delivery. */
        TransmissionHeader: {
            /** @description TXN- followed by digits; unique per transmission, for de-duplication. */
            transmissionID: string;
            /**
             * Format: date-time
             * @description When the transmission was sent.
             */
            transmissionDateTime: string;
            /** @description Why it was sent: MANUAL_TRIGGER for a lookup; for a pushed transmission, the change that triggered it. */
            triggerType: components["schemas"]["TriggerType"];
            /** @description eventID that caused the transmission; null for manual snapshots. */
            triggeredByEvent: string | null;
            /** @description Constant that always identifies the service. */
            senderID: string;
            /** @description The client identifier (client_id). */
            receiverID: string;
            /**
             * @description Payload schema version; currently 1.2.
             * @constant
             */
            schemaVersion: "1.2";
        };
        /**
         * @description Who issued a facilityCode.
         *
         *     - `BIC`: Bureau International des Containers: facilityCode is a BIC facility code.
         *     - `SMDG`: Ship Message Design Group: facilityCode is an SMDG terminal code.
         * @enum {string}
         */
        FacilityCodeListProvider: "BIC" | "SMDG";
        /** @description The address of a location. */
        Address: {
            /** @description The address, on one line. */
            name: string;
        };
        /** @description A port, terminal or other place, by UN/LOCODE and optional facility code. */
        Location: {
            /** @description Name of the place, e.g. Rotterdam. */
            locationName?: string;
            /** @description UN/LOCODE, e.g. NLRTM. */
            unLocationCode?: string;
            /** @description The facility (terminal, depot), in the code list facilityCodeListProvider names. */
            facilityCode?: string;
            /** @description Who issued facilityCode: BIC or SMDG. */
            facilityCodeListProvider?: components["schemas"]["FacilityCodeListProvider"];
            /** @description Postal address of the place. */
            address?: components["schemas"]["Address"];
        };
        /** @description Booking-level reference fields: every key is always present. */
        ShipmentReferences: {
            /** @description The customer's name; empty when unset. */
            customer_name: string;
            /** @description Free-form string reference 1; empty when unset. */
            string_ref1: string;
            /** @description Free-form string reference 2; empty when unset. */
            string_ref2: string;
            /** @description Free-form string reference 3; empty when unset. */
            string_ref3: string;
            /** @description Free-form string reference 4; empty when unset. */
            string_ref4: string;
            /** @description Free-form string reference 5; empty when unset. */
            string_ref5: string;
            /** @description Free-form string reference 6; empty when unset. */
            string_ref6: string;
            /** @description Free-form string reference 7; empty when unset. */
            string_ref7: string;
            /** @description Free-form string reference 8; empty when unset. */
            string_ref8: string;
            /**
             * Format: date-time
             * @description When the cargo is ready; null when unset.
             */
            cargo_ready_dt: string | null;
            /**
             * Format: date-time
             * @description Shipping instruction cut-off; null when unset.
             */
            si_cutoff_dt: string | null;
            /**
             * Format: date-time
             * @description Verified gross mass (VGM) cut-off; null when unset.
             */
            vgm_cutoff_dt: string | null;
            /**
             * Format: date-time
             * @description When the booking was made; null when unset.
             */
            booking_dt: string | null;
            /**
             * Format: date-time
             * @description Free-form date reference 1; null when unset.
             */
            date_ref1: string | null;
            /**
             * Format: date-time
             * @description Free-form date reference 2; null when unset.
             */
            date_ref2: string | null;
            /**
             * Format: date-time
             * @description Free-form date reference 3; null when unset.
             */
            date_ref3: string | null;
            /**
             * Format: date-time
             * @description Free-form date reference 4; null when unset.
             */
            date_ref4: string | null;
        };
        /**
         * @description The kind of event.
         *
         *     - `EQUIPMENT`: A container movement (EquipmentEvent).
         *     - `SHIPMENT`: A booking or document milestone (ShipmentEvent).
         *     - `TRANSPORT`: A vessel or other means of transport arriving or departing (TransportEvent).
         * @enum {string}
         */
        EventType: "EQUIPMENT" | "SHIPMENT" | "TRANSPORT";
        /**
         * @description How certain an event is: ACT over EST over PLN when versions of one milestone compete.
         *
         *     - `ACT`: Actual: the milestone has happened.
         *     - `EST`: Estimated: a forecast.
         *     - `PLN`: Planned: from the carrier schedule.
         * @enum {string}
         */
        EventClassifierCode: "ACT" | "EST" | "PLN";
        /**
         * @description The kind of document a document reference names.
         *
         *     - `BKG`: Booking: the value is a carrier booking reference.
         *     - `TRD`: Transport document: the value is a bill of lading number.
         * @enum {string}
         */
        DocumentReferenceTypeCode: "BKG" | "TRD";
        /** @description A document an event refers to. */
        DocumentReference: {
            /** @description BKG (booking) or TRD (transport document). */
            documentReferenceType: components["schemas"]["DocumentReferenceTypeCode"];
            /** @description The carrier booking reference or the bill of lading number. */
            documentReferenceValue: string;
        };
        /**
         * @description The kind of document a shipment event is about (DCSA document type codes).
         *
         *     - `ARN`: Arrival Notice.
         *     - `BKG`: Booking.
         *     - `CAS`: Cargo Survey.
         *     - `CBR`: Carrier Booking Request.
         *     - `CQU`: Contract Quotation.
         *     - `CRO`: Container Release Order.
         *     - `CUC`: Customs Clearance.
         *     - `CUS`: Customs Inspection (DCSA Track & Trace 2.2 OpenAPI only).
         *     - `DEI`: Delivery Instructions.
         *     - `DEO`: Delivery Order.
         *     - `DGD`: Dangerous Goods Declaration.
         *     - `INV`: Invoice.
         *     - `OOG`: Out of Gauge.
         *     - `SHI`: Shipping Instruction.
         *     - `SRM`: Shipment Release Message (DCSA Track & Trace 2.2 OpenAPI only).
         *     - `TRD`: Transport Document (bill of lading).
         *     - `TRO`: Transport Order.
         *     - `VGM`: Verified Gross Mass.
         * @enum {string}
         */
        DocumentTypeCode: "ARN" | "BKG" | "CAS" | "CBR" | "CQU" | "CRO" | "CUC" | "CUS" | "DEI" | "DEO" | "DGD" | "INV" | "OOG" | "SHI" | "SRM" | "TRD" | "TRO" | "VGM";
        /**
         * @description What happened to a booking or document (DCSA shipment event type codes).
         *
         *     - `APPR`: Approved: the document has been approved by the counterpart.
         *     - `CANC`: Cancelled: the booking is cancelled by the shipper.
         *     - `CMPL`: Completed: an activity, service or document has been completed.
         *     - `CONF`: Confirmed: the document is confirmed (for a booking: booking confirmed).
         *     - `DRFT`: Drafted: the document is in draft, being updated by the shipper or the carrier.
         *     - `HOLD`: On Hold: the container or shipment has been placed on hold and cannot progress.
         *     - `ISSU`: Issued: the document has been issued by the carrier (for a bill of lading: bill of lading issued).
         *     - `PENA`: Pending Approval: submitted by the carrier, awaiting approval by the shipper.
         *     - `PENC`: Pending Confirmation: submitted by the shipper, awaiting approval by the carrier.
         *     - `PENU`: Pending Update: the carrier requested an update from the shipper, not received yet.
         *     - `RECE`: Received: the document is received by the carrier or shipper.
         *     - `REJE`: Rejected: the document has been rejected by the carrier.
         *     - `RELS`: Released: the container or shipment has been released by authorities or the service provider.
         *     - `REQS`: Requested: an activity, service or document has been requested, until it is completed.
         *     - `SUBM`: Submitted: the document has been submitted by the customer to the carrier.
         *     - `SURR`: Surrendered: the document has been surrendered by the customer to the carrier.
         *     - `VOID`: Void: cancellation of an original document.
         * @enum {string}
         */
        ShipmentEventTypeCode: "APPR" | "CANC" | "CMPL" | "CONF" | "DRFT" | "HOLD" | "ISSU" | "PENA" | "PENC" | "PENU" | "RECE" | "REJE" | "RELS" | "REQS" | "SUBM" | "SURR" | "VOID";
        /** @description A booking or document milestone, such as a booking confirmed or a bill of lading issued. */
        ShipmentEvent: {
            /**
             * Format: uuid
             * @description The event, a UUID; each version of a milestone has its own.
             */
            eventID: string;
            /** @description SHIPMENT, TRANSPORT or EQUIPMENT. */
            eventType: components["schemas"]["EventType"];
            /**
             * Format: date-time
             * @description Time of the milestone.
             */
            eventDateTime: string;
            /**
             * Format: date-time
             * @description When the event was created.
             */
            eventCreatedDateTime: string;
            /** @description ACT (actual, has happened), EST (estimated, forecast) or PLN (planned, from the carrier schedule). */
            eventClassifierCode: components["schemas"]["EventClassifierCode"];
            /** @description The booking and transport documents the event refers to. */
            documentReferences?: components["schemas"]["DocumentReference"][];
            /** @description The document: a carrier booking reference (BKG) or a bill of lading number (TRD). */
            documentID: string;
            /** @description The kind of document documentID names (values seen: BKG, TRD). */
            documentTypeCode: components["schemas"]["DocumentTypeCode"];
            /** @description What happened to the document: CONF = booking confirmed, ISSU = bill of lading issued, … */
            shipmentEventTypeCode: components["schemas"]["ShipmentEventTypeCode"];
        };
        /** @description A vessel, by name and IMO number. */
        Vessel: {
            /** @description Name of the vessel. */
            vesselName: string;
            /** @description IMO number: seven digits, the last a check digit. */
            vesselIMONumber: string;
        };
        /**
         * @description How the cargo moves (DCSA transport type).
         *
         *     - `BARGE`: Inland water transport.
         *     - `RAIL`: Rail transport.
         *     - `TRUCK`: Road transport.
         *     - `VESSEL`: Maritime transport: by sea.
         * @enum {string}
         */
        ModeOfTransport: "BARGE" | "RAIL" | "TRUCK" | "VESSEL";
        /**
         * @description The kind of facility a transport call is at (DCSA facility types).
         *
         *     - `ANCH`: Anchorage: where vessels anchor or may anchor.
         *     - `BOCR`: Border crossing: a point at a border where transports or goods can cross.
         *     - `BRTH`: Berth: a place in a port where vessels moor.
         *     - `CLOC`: Customer location: the premises of the shipper or the consignee.
         *     - `COFS`: Container freight station: where LCL cargo is consolidated, stuffed or stripped.
         *     - `COYA`: Container yard: deprecated in DCSA 2.2 in favour of OFFD, still in its OpenAPI enum.
         *     - `DEPO`: Depot: an area where empty equipment is stored between uses.
         *     - `INTE`: Inland terminal: containers are loaded, moved or discharged by truck, rail or barge.
         *     - `OFFD`: Off dock storage: an interim storage facility for containers in transit.
         *     - `PBPL`: Pilot boarding place: where a pilot boards the vessel on arrival at the port boundaries.
         *     - `POTE`: Port terminal: containers are loaded, moved or discharged onto or from sea-going vessels and barges.
         *     - `RAMP`: Ramp: an inland container terminal connected directly to a rail ramp.
         * @enum {string}
         */
        FacilityTypeCode: "ANCH" | "BOCR" | "BRTH" | "CLOC" | "COFS" | "COYA" | "DEPO" | "INTE" | "OFFD" | "PBPL" | "POTE" | "RAMP";
        /** @description A call of a vessel (or truck, barge, train) at a place on its voyage (DCSA transport call). */
        TransportCall: {
            /** @description The vessel; absent for non-vessel calls. */
            vessel?: components["schemas"]["Vessel"];
            /** @description Where the call is. */
            location?: components["schemas"]["Location"];
            /** @description The facility called at. */
            facilityCode?: string;
            /** @description UN/LOCODE of the place called at. */
            unLocationCode: string;
            /** @description How the cargo moves to or from the call (values seen: VESSEL, TRUCK, BARGE). */
            modeOfTransport: components["schemas"]["ModeOfTransport"];
            /** @description The kind of facility called at (values seen: POTE, DEPO, INTE). */
            facilityTypeCode?: components["schemas"]["FacilityTypeCode"];
            /** @description Voyage number of the departure from this call. */
            exportVoyageNumber?: string;
            /** @description Voyage number of the arrival at this call. */
            importVoyageNumber?: string;
            /** @description Who issued facilityCode: BIC or SMDG. */
            facilityCodeListProvider?: components["schemas"]["FacilityCodeListProvider"];
            /** @description Tells apart calls at the same place on one voyage (1 for the first). */
            transportCallSequenceNumber?: number;
        };
        /**
         * @description What a means of transport did at a call.
         *
         *     - `ARRI`: Arrival.
         *     - `DEPA`: Departure.
         * @enum {string}
         */
        TransportEventTypeCode: "ARRI" | "DEPA";
        /** @description A vessel (or other means of transport) departing from or arriving at a transport call. */
        TransportEvent: {
            /**
             * Format: uuid
             * @description The event, a UUID; each version of a milestone has its own.
             */
            eventID: string;
            /** @description SHIPMENT, TRANSPORT or EQUIPMENT. */
            eventType: components["schemas"]["EventType"];
            /**
             * Format: date-time
             * @description Time of the milestone.
             */
            eventDateTime: string;
            /**
             * Format: date-time
             * @description When the event was created.
             */
            eventCreatedDateTime: string;
            /** @description ACT (actual, has happened), EST (estimated, forecast) or PLN (planned, from the carrier schedule). */
            eventClassifierCode: components["schemas"]["EventClassifierCode"];
            /** @description The booking and transport documents the event refers to. */
            documentReferences?: components["schemas"]["DocumentReference"][];
            /** @description The call the event happened at. */
            transportCall: components["schemas"]["TransportCall"];
            /** @description DEPA = departure, ARRI = arrival. */
            transportEventTypeCode: components["schemas"]["TransportEventTypeCode"];
        };
        /** @description Container-level reference fields: every key is always present. */
        ContainerReferences: {
            /** @description The customer's name; empty when unset. */
            customer_name: string;
            /** @description Free-form string reference 1; empty when unset. */
            string_ref1: string;
            /** @description Free-form string reference 2; empty when unset. */
            string_ref2: string;
            /** @description Free-form string reference 3; empty when unset. */
            string_ref3: string;
            /** @description Free-form string reference 4; empty when unset. */
            string_ref4: string;
            /** @description Free-form string reference 5; empty when unset. */
            string_ref5: string;
            /** @description Free-form string reference 6; empty when unset. */
            string_ref6: string;
            /** @description Free-form string reference 7; empty when unset. */
            string_ref7: string;
            /** @description Free-form string reference 8; empty when unset. */
            string_ref8: string;
            /**
             * Format: date-time
             * @description When the container was stuffed; null when unset.
             */
            stuffing_dt: string | null;
            /**
             * Format: date-time
             * @description When free time expires (DEMURRAGE_RISK and DETENTION_RISK are judged against it); null when unset.
             */
            free_time_exp_dt: string | null;
            /**
             * Format: date-time
             * @description Free-form date reference 1; null when unset.
             */
            date_ref1: string | null;
            /**
             * Format: date-time
             * @description Free-form date reference 2; null when unset.
             */
            date_ref2: string | null;
            /**
             * Format: date-time
             * @description Free-form date reference 3; null when unset.
             */
            date_ref3: string | null;
            /**
             * Format: date-time
             * @description Free-form date reference 4; null when unset.
             */
            date_ref4: string | null;
            /**
             * Format: date-time
             * @description Free-form date reference 5; null when unset.
             */
            date_ref5: string | null;
            /**
             * Format: date-time
             * @description Free-form date reference 6; null when unset.
             */
            date_ref6: string | null;
        };
        /**
         * @description Whether a container was empty or laden at an event.
         *
         *     - `EMPTY`: The container is empty.
         *     - `LADEN`: The container is loaded with cargo.
         * @enum {string}
         */
        EmptyIndicatorCode: "EMPTY" | "LADEN";
        /**
         * @description What happened to a container (DCSA equipment event type codes).
         *
         *     - `AVDO`: Available for Drop-off: the container is ready to be delivered at a facility.
         *     - `AVPU`: Available for Pick-up: the container is ready to be collected at a facility.
         *     - `CUSI`: Customs Selected for Inspection: customs selected the container for inspection.
         *     - `CUSR`: Customs Released: customs released the container for export or import.
         *     - `CUSS`: Customs Selected for Scan: customs selected the container for scanning.
         *     - `DISC`: Discharge: the container has been lifted off the means of transport.
         *     - `DROP`: Drop-off: the container delivered at the customer location.
         *     - `GTIN`: Gate in: the container has entered a controlled area such as a port or inland terminal.
         *     - `GTOT`: Gate out: the container has left a controlled area such as a port or inland terminal.
         *     - `INSP`: Inspected: the seal on the container has been inspected.
         *     - `LOAD`: Load: the container has been lifted on board the means of transport and secured.
         *     - `PICK`: Pick-up: the container collected at the customer location.
         *     - `RMVD`: Removed: a seal has been removed from the container for inspection.
         *     - `RSEA`: Resealed: the container has been resealed after inspection.
         *     - `STRP`: Stripping: cargo unloaded from the container.
         *     - `STUF`: Stuffing: cargo loaded into the container.
         *     - `WAYP`: Way Point Crossed: the container crossed an intermediate point of its transit.
         * @enum {string}
         */
        EquipmentEventTypeCode: "AVDO" | "AVPU" | "CUSI" | "CUSR" | "CUSS" | "DISC" | "DROP" | "GTIN" | "GTOT" | "INSP" | "LOAD" | "PICK" | "RMVD" | "RSEA" | "STRP" | "STUF" | "WAYP";
        /** @description A container movement: gate in or out, load, discharge, … */
        EquipmentEvent: {
            /**
             * Format: uuid
             * @description The event, a UUID; each version of a milestone has its own.
             */
            eventID: string;
            /** @description SHIPMENT, TRANSPORT or EQUIPMENT. */
            eventType: components["schemas"]["EventType"];
            /**
             * Format: date-time
             * @description Time of the milestone.
             */
            eventDateTime: string;
            /**
             * Format: date-time
             * @description When the event was created.
             */
            eventCreatedDateTime: string;
            /** @description ACT (actual, has happened), EST (estimated, forecast) or PLN (planned, from the carrier schedule). */
            eventClassifierCode: components["schemas"]["EventClassifierCode"];
            /** @description Where the event happened. */
            eventLocation?: components["schemas"]["Location"];
            /** @description The transport call the event belongs to, e.g. the vessel a container was loaded on. */
            transportCall?: components["schemas"]["TransportCall"];
            /** @description LADEN or EMPTY. */
            emptyIndicatorCode: components["schemas"]["EmptyIndicatorCode"];
            /** @description Container number (ISO 6346). */
            equipmentReference: string;
            /** @description GTOT = gate out, GTIN = gate in, LOAD = loaded, DISC = discharged, … */
            equipmentEventTypeCode: components["schemas"]["EquipmentEventTypeCode"];
        };
        /** @description A container of the shipment, with its movements. */
        Container: {
            /** @description Container number (ISO 6346), e.g. MSKU1234565. */
            containerNumber: string;
            /** @description ISO 6346 size and type code, e.g. 45G1. */
            isoType?: string;
            /** @description Container-level reference fields. */
            references: components["schemas"]["ContainerReferences"];
            /** @description The most recent actual event; before any, the next estimated or planned one; null while the container has no event. */
            latestEvent: components["schemas"]["EquipmentEvent"] | null;
            /** @description The container's events, one per milestone (its best version), in time order. */
            eventHistory: components["schemas"]["EquipmentEvent"][];
        };
        /**
         * @description The kind of problem an exception reports.
         *
         *     - `DEMURRAGE_RISK`: A laden container discharged and not gated out is within the warning window (default 48 h) of its free time expiry, or past it.
         *     - `DETENTION_RISK`: A container gated out at destination and not returned empty is within the warning window of its free time expiry, or past it.
         *     - `ETA_DELAY`: The best arrival at the port of discharge is at least the delay threshold (default 12 h) after the first planned arrival.
         *     - `MISSED_CONNECTION`: At a transshipment port the inbound arrival is later than the outbound departure.
         *     - `ROLLOVER`: The vessel left the loading port without a container planned on it, or the container was re-planned on another vessel or voyage.
         * @enum {string}
         */
        ExceptionType: "DEMURRAGE_RISK" | "DETENTION_RISK" | "ETA_DELAY" | "MISSED_CONNECTION" | "ROLLOVER";
        /**
         * @description The family of an exception type.
         *
         *     - `OPERATIONAL`: Action-required problems such as rollovers, demurrage, detention.
         *     - `SCHEDULE`: Timing problems such as delays and missed connections.
         * @enum {string}
         */
        ExceptionCategory: "OPERATIONAL" | "SCHEDULE";
        /**
         * @description How urgent an exception is.
         *
         *     - `CRITICAL`: A delay from the critical threshold, a rollover, a missed connection, or free time expired.
         *     - `WARNING`: A delay under the critical threshold (default 48 h), or free time about to expire.
         * @enum {string}
         */
        Severity: "CRITICAL" | "WARNING";
        /**
         * @description Whether an exception is open.
         *
         *     - `DETECTED`: The condition holds; the exception is open.
         *     - `RESOLVED`: The condition no longer holds; resolvedDateTime, resolutionType and resolutionNote say when and why.
         * @enum {string}
         */
        ExceptionStatus: "DETECTED" | "RESOLVED";
        /**
         * @description Why an exception was resolved.
         *
         *     - `DATA_CORRECTED`: The shipment's data changed (e.g. a later free time, another port) and no event explains it: the condition no longer holds.
         *     - `EVENT_ACTUALIZED`: The awaited event actually happened (arrival, load, gate-out or empty return), or a late-reported actual shows the problem never was.
         *     - `MANUAL_CLEAR`: An operator cleared the exception; resolutionNote holds their note.
         *     - `REBOOKED`: The container or connection was re-planned on another vessel or voyage.
         *     - `SCHEDULE_RECOVERED`: The schedule moved back: the delay is under the threshold, or the connection holds again.
         * @enum {string}
         */
        ResolutionType: "DATA_CORRECTED" | "EVENT_ACTUALIZED" | "MANUAL_CLEAR" | "REBOOKED" | "SCHEDULE_RECOVERED";
        /** @description What an exception changed. On a resolved exception, the move from the exception state to the recovered state. */
        Impact: {
            /** @description Name of the changed field, e.g. eta. */
            field: string;
            /** @description The value before the change; on a resolved exception, the delayed value. */
            previousValue: string;
            /** @description The value after the change; on a resolved exception, the recovered value. */
            revisedValue: string;
            /** @description Present for delays: hours late against the original plan (on a resolved exception, the remaining delay). */
            delayHours?: number;
        };
        /** @description A schedule or operational problem of the shipment, carried inline in the snapshot. It keeps its exceptionID through updates and resolution; resolved exceptions stay in the list so pollers see the resolution. */
        Exception: {
            /**
             * Format: uuid
             * @description UUID, stable across updates; the resolved form reuses it.
             */
            exceptionID: string;
            /** @description The kind of problem. */
            exceptionType: components["schemas"]["ExceptionType"];
            /** @description SCHEDULE (timing problems) or OPERATIONAL (action-required problems). */
            exceptionCategory: components["schemas"]["ExceptionCategory"];
            /** @description WARNING or CRITICAL. */
            severity: components["schemas"]["Severity"];
            /** @description DETECTED or RESOLVED. */
            status: components["schemas"]["ExceptionStatus"];
            /**
             * Format: date-time
             * @description When first raised.
             */
            detectedDateTime: string;
            /**
             * Format: date-time
             * @description Only when RESOLVED: when it was resolved.
             */
            resolvedDateTime?: string;
            /** @description Only when RESOLVED: why it was resolved. */
            resolutionType?: components["schemas"]["ResolutionType"];
            /** @description Only when RESOLVED: human-readable details of the resolution. */
            resolutionNote?: string;
            /** @description Human-readable one-line summary. */
            title: string;
            /** @description Human-readable account of the problem. */
            description: string;
            /**
             * Format: uuid
             * @description The event that triggered the exception (or its latest update).
             */
            relatedEventID?: string;
            /** @description Numbers of the containers concerned. */
            affectedContainers: string[];
            /** @description The changed value, e.g. the eta. */
            impact?: components["schemas"]["Impact"];
            /** @description Suggested next step. */
            recommendedAction: string;
        };
        /** @description The current tracking snapshot of one shipment. */
        ShipmentTracking: {
            /** @description Forwarder booking reference. */
            bookingReference: string | null;
            /** @description Carrier booking number; unique only within its carrier. */
            carrierBookingReference: string;
            /** @description Bill of lading number. */
            billOfLadingNumber: string | null;
            /** @description Carrier SCAC code. */
            carrierCode: string;
            /** @description Human-readable carrier name. */
            carrierName: string | null;
            /** @description Main vessel. */
            vesselName?: string;
            /** @description Voyage number of the main vessel. */
            voyageNumber?: string;
            /** @description Where the main vessel loads the cargo. */
            portOfLoading?: components["schemas"]["Location"];
            /** @description Where the main vessel discharges the cargo. */
            portOfDischarge?: components["schemas"]["Location"];
            /** @description Where the carrier takes charge of the cargo. */
            placeOfReceipt?: components["schemas"]["Location"];
            /** @description Where the carrier hands the cargo over. */
            placeOfDelivery?: components["schemas"]["Location"];
            /** @description Scope of carriage, e.g. a port-to-door or door-to-door value. */
            serviceType: string | null;
            /**
             * Format: date-time
             * @description Current estimated departure: the best departure event at the port of loading.
             */
            etd: string | null;
            /**
             * Format: date-time
             * @description Current estimated arrival: the best arrival event at the port of discharge.
             */
            eta: string | null;
            /** @description Booking-level reference fields. */
            references: components["schemas"]["ShipmentReferences"];
            /** @description One event per milestone, its best version (ACT over EST over PLN, then latest created). */
            shipmentEvents: components["schemas"]["ShipmentEvent"][];
            /** @description One event per milestone, its best version (ACT over EST over PLN, then latest created). */
            transportEvents: components["schemas"]["TransportEvent"][];
            /** @description The containers of the shipment. */
            containers: components["schemas"]["Container"][];
            /** @description Always an array, empty when none; resolved exceptions stay so pollers see the resolution. */
            exceptions: components["schemas"]["Exception"][];
            /** @description Only with `include=predictedArrival`: the service's own arrival estimate, learned from its history; not the carrier's word (that is `eta`). Absent when the carrier gave no ETA and no history exists. */
            predictedArrival?: components["schemas"]["PredictedArrival"];
        };
        /** @description One delivery: a header and the shipment. Every lookup returns the full current snapshot. */
        Transmission: {
            /** @description Metadata about this delivery. */
            transmissionHeader: components["schemas"]["TransmissionHeader"];
            /** @description The shipment. */
            shipmentTracking: components["schemas"]["ShipmentTracking"];
        };
        /** @description An access token (OAuth 2.0 client credentials grant, RFC 6749 section 5.1). */
        TokenResponse: {
            /** @description Bearer token (JWT, RFC 9068): send it as `Authorization: Bearer <access_token>`. */
            access_token: string;
            /**
             * @description Always Bearer.
             * @constant
             */
            token_type: "Bearer";
            /**
             * @description Seconds the token is valid for: 3600. Reuse it until shortly before it expires.
             * @constant
             */
            expires_in: 3600;
            /** @description The granted scope: track-and-trace.read. */
            scope: string;
        };
        /** @description One cause of an error (DCSA DetailedError); GraphQL errors carry them in extensions.details. */
        DetailedError: {
            /** @description DCSA error code: 7000-7999 technical, 8000-8999 functional (e.g. 8004 invalidParameter). */
            errorCode: number;
            /** @description What is wrong and how to fix it. */
            errorCodeMessage: string;
            /** @description Short name of errorCode, e.g. invalidParameter. */
            errorCodeText: string;
            /** @description A JSONPath to the parameter, e.g. $.carrierCode. */
            jsonPath?: string;
            /** @description The name of the parameter causing the error. */
            property?: string;
            /** @description The value of the parameter causing the error, as it was sent (at most 500 characters). */
            value?: string;
        };
        /** @description DCSA error response, the body of every error of GET /v2/shipments. */
        Error: {
            /**
             * Format: date-time
             * @description When the error occurred.
             */
            errorDateTime: string;
            /** @description The causes of the error; at least one. */
            errors: components["schemas"]["DetailedError"][];
            /** @description The HTTP method of the request, e.g. GET. */
            httpMethod: string;
            /** @description The request's id, also in the X-Correlation-ID header and in the service's logs: quote it. */
            providerCorrelationReference: string;
            /** @description The path and query that were requested. */
            requestUri: string;
            /** @description The HTTP status code returned. */
            statusCode: number;
            /** @description What the status means for this request. */
            statusCodeMessage: string;
            /** @description The HTTP status, e.g. Bad Request. */
            statusCodeText: string;
        };
        /**
         * @description What a subscription follows.
         *
         *     - `ACCOUNT`: Every shipment your account sees, including shipments linked to it later.
         *     - `SHIPMENT`: One shipment, named by a lookup form when the subscription was made.
         * @enum {string}
         */
        WebhookSubscriptionCoverage: "ACCOUNT" | "SHIPMENT";
        /**
         * @description Whether a subscription still receives deliveries.
         *
         *     - `ACTIVE`: Deliveries are sent.
         *     - `DISABLED`: No more deliveries: the receiver answered 410 Gone, or the client or shipment access went away (see disabledReason).
         * @enum {string}
         */
        WebhookSubscriptionStatus: "ACTIVE" | "DISABLED";
        /** @description A webhook subscription (the spec's Subscription): where and what the service pushes for one shipment. */
        WebhookSubscription: {
            /**
             * Format: uuid
             * @description UUID of the subscription.
             */
            subscriptionID: string;
            /**
             * Format: uri
             * @description Where deliveries are POSTed.
             */
            callbackUrl: string;
            /** @description The lookup it was created with: carrier SCAC code. */
            carrierCode: string | null;
            /** @description The lookup: carrier booking number. */
            carrierBookingReference: string | null;
            /** @description The lookup: bill of lading number. */
            billOfLadingNumber: string | null;
            /** @description The lookup: container number. */
            equipmentReference?: string;
            /** @description The changes it receives. */
            triggerTypes: components["schemas"]["TriggerType"][];
            /** @description Only exception triggers (detected, resolved) of these types; null for every type. Other triggers are not affected. */
            exceptionTypes?: components["schemas"]["ExceptionType"][];
            /** @description Only shipments of these carriers (SCAC codes); null for every carrier. */
            carrierCodes?: string[];
            /** @description PREDICTED_ARRIVAL: the move of the predicted arrival, hours, that is pushed; null for none. */
            predictedArrivalShiftHours?: number;
            /** @description PREDICTED_ARRIVAL: the lateness against the carrier's planned arrival, hours, that is pushed; null for none. */
            predictedLatenessHours?: number;
            /** @description SHIPMENT: the shipment its lookup named; ACCOUNT: every shipment your account sees, those added later included. */
            coverage: components["schemas"]["WebhookSubscriptionCoverage"];
            /** @description Seconds between SCHEDULED_TRIGGER refreshes; null for none. */
            scheduledIntervalSeconds?: number;
            /** @description ACTIVE or DISABLED. */
            status: components["schemas"]["WebhookSubscriptionStatus"];
            /** @description Why it was disabled. */
            disabledReason?: string;
            /**
             * Format: date-time
             * @description After a secret rotation: until when deliveries are also signed with the previous secret.
             */
            previousSecretExpiresDateTime?: string;
            /**
             * Format: date-time
             * @description When it was created.
             */
            createdDateTime: string;
            /**
             * Format: date-time
             * @description When it last changed.
             */
            updatedDateTime: string;
        };
        /**
         * @description Where a delivery stands.
         *
         *     - `DELIVERED`: The receiver answered 2xx.
         *     - `FAILED`: Given up: the retry period ran out, the receiver answered 410, or the subscription stopped.
         *     - `PENDING`: Not delivered yet: waiting for its turn or for its next attempt.
         * @enum {string}
         */
        WebhookDeliveryStatus: "DELIVERED" | "FAILED" | "PENDING";
        /** @description One delivery of one change to one subscription: its entry in the delivery log. */
        WebhookDelivery: {
            /**
             * Format: uuid
             * @description UUID; also the Tracking-Delivery-ID header of every attempt.
             */
            deliveryID: string;
            /** @description The transmissionID of its body, the same on every attempt. */
            transmissionID: string;
            /** @description The change it delivers. */
            triggerType: components["schemas"]["TriggerType"];
            /**
             * Format: uuid
             * @description The eventID that caused it.
             */
            triggeredByEvent: string | null;
            /**
             * Format: uuid
             * @description For exception triggers: the exception.
             */
            exceptionID?: string;
            /** @description PENDING, DELIVERED or FAILED. */
            status: components["schemas"]["WebhookDeliveryStatus"];
            /** @description Attempts made so far. */
            attempts: number;
            /** @description HTTP status of the last attempt; null when none came. */
            lastStatus?: number;
            /** @description What went wrong in the last attempt. */
            lastError?: string;
            /**
             * Format: date-time
             * @description While PENDING: when it is next tried.
             */
            nextAttemptDateTime?: string;
            /**
             * Format: date-time
             * @description When the change was committed (and the delivery enqueued).
             */
            createdDateTime: string;
            /**
             * Format: date-time
             * @description When the receiver accepted it.
             */
            deliveredDateTime?: string;
        };
        /** @description A delivery sent while you waited (a test or a redelivery), and the receiver's answer. */
        WebhookTrialResult: {
            /** @description The Tracking-Delivery-ID header it carried. */
            deliveryID: string;
            /** @description The transmissionID of its body. */
            transmissionID: string;
            /** @description The receiver's HTTP status; null when it did not answer in time. */
            status?: number;
            /** @description Milliseconds from sending to the receiver's answer (or the failure). */
            latencyMs: number;
            /** @description What went wrong; null when the receiver answered 2xx. */
            error?: string;
            /** @description The receiver answered 2xx. */
            delivered: boolean;
            /** @description A test delivery (header Tracking-Test: true), not recorded in the delivery log. */
            test: boolean;
        };
        /** @description One DCSA notification (a POST of up to 500 events) to one event subscription: its entry in the delivery log. */
        EventSubscriptionDelivery: {
            /**
             * Format: uuid
             * @description UUID of the delivery.
             */
            deliveryID: string;
            /** @description PENDING, DELIVERED or FAILED. */
            status: components["schemas"]["WebhookDeliveryStatus"];
            /** @description Attempts made so far (the HEAD check of a new callback URL is not one). */
            attempts: number;
            /** @description HTTP status of the last attempt; null when none came. */
            lastStatus?: number;
            /** @description What went wrong in the last attempt. */
            lastError?: string;
            /**
             * Format: date-time
             * @description While PENDING: when it is next tried.
             */
            nextAttemptDateTime?: string;
            /**
             * Format: date-time
             * @description When the events were committed (and the notification enqueued).
             */
            createdDateTime: string;
            /**
             * Format: date-time
             * @description When the receiver accepted it.
             */
            deliveredDateTime?: string;
        };
        /** @description One change of a shipment, as push delivery sends it (the same triggers as webhooks and live updates), or of your account's access to it: GRANTED (your account was given the shipment), REVOKED (it was taken back). */
        ShipmentChange: {
            /** @description What changed. */
            triggerType: components["schemas"]["TriggerType"];
            /** @description The eventID that caused it. */
            triggeredByEvent: string | null;
            /** @description For exception triggers: the exception. */
            exceptionID?: string;
            /** @description For exception triggers: the exception's type. */
            exceptionType?: components["schemas"]["ExceptionType"];
            /**
             * Format: date-time
             * @description When the change was committed.
             */
            changedDateTime: string;
        };
        /** @description A shipment your account sees and what changed: in the first listing (no cursor) each shipment once with no changes; after a cursor, the changes of this page, in commit order. */
        AccountChange: {
            /** @description Carrier SCAC code. */
            carrierCode: string;
            /** @description Carrier booking number. */
            carrierBookingReference: string;
            /** @description Bill of lading number. */
            billOfLadingNumber: string | null;
            /** @description The shipment's current version: it moves with every change to the shipment, its events or its exceptions. Null (absent in REST) when your account no longer sees the shipment (its changes end with REVOKED). */
            version?: number;
            /**
             * Format: date-time
             * @description When it last changed: its last change in this page (in the listing, when the shipment last changed).
             */
            changedDateTime: string;
            /** @description What changed, in commit order; empty in the listing. */
            changes: components["schemas"]["ShipmentChange"][];
            /** @description The current snapshot, as the lookup returns it (loaded only when selected); null (absent in REST) when your account no longer sees the shipment. */
            shipmentTracking?: components["schemas"]["ShipmentTracking"];
        };
        /** @description One page of the change feed. */
        AccountChangePage: {
            /** @description The shipments of this page. */
            changes: components["schemas"]["AccountChange"][];
            /** @description The cursor to read after this page: pass it as `after` (now, or on your next poll). */
            next: string;
            /** @description More may follow at once; false: caught up, poll `next` later. */
            hasMore: boolean;
        };
        /**
         * @description Where a tracking request stands.
         *
         *     - `AWAITING_CARRIER_DATA`: The carrier has nothing for this reference yet; it is asked again until the give-up time.
         *     - `FAILED`: Given up: the carrier had nothing within the give-up time, or cannot be asked (see failureReason).
         *     - `PENDING`: Accepted; the carrier has not been asked yet.
         *     - `STOPPED`: No longer followed: DELETED by the client, COMPLETED, or GIVEN_UP after a long silence (see stopReason).
         *     - `TRACKING`: The carrier's events were found: the shipment is served and followed.
         * @enum {string}
         */
        TrackingRequestStatus: "AWAITING_CARRIER_DATA" | "FAILED" | "PENDING" | "STOPPED" | "TRACKING";
        /** @description The shipment a tracking request found: look it up with these (GET /v2/shipments, GraphQL shipment). */
        TrackedShipment: {
            /** @description Carrier SCAC code. */
            carrierCode: string;
            /** @description Carrier booking reference. */
            carrierBookingReference: string;
            /** @description Bill of lading number, when known. */
            billOfLadingNumber: string | null;
        };
        /** @description A request to track one reference with one carrier. */
        TrackingRequest: {
            /** @description UUID of the request. */
            trackingRequestID: string;
            /** @description Where it stands. */
            status: components["schemas"]["TrackingRequestStatus"];
            /** @description The carrier asked (given, or recognised from the prefix). */
            carrierCode: string;
            /** @description The bill of lading tracked. */
            transportDocumentReference?: string;
            /** @description The carrier booking tracked. */
            carrierBookingReference: string | null;
            /** @description The container tracked. */
            equipmentReference?: string;
            /** @description When FAILED: why. */
            failureReason?: string;
            /** @description When STOPPED: DELETED, COMPLETED or GIVEN_UP. */
            stopReason?: string;
            /** @description The shipment found, once TRACKING. */
            shipment?: components["schemas"]["TrackedShipment"];
            /** @description The carrier's events received for the reference so far. */
            eventsReceived: number;
            /**
             * Format: date-time
             * @description When it was made.
             */
            createdDateTime: string;
            /**
             * Format: date-time
             * @description When it last changed.
             */
            updatedDateTime: string;
            /**
             * Format: date-time
             * @description When its status last changed.
             */
            statusChangedDateTime: string;
            /**
             * Format: date-time
             * @description When the carrier's events were first found.
             */
            trackingSinceDateTime?: string;
            /**
             * Format: date-time
             * @description When the carrier was last asked.
             */
            lastFetchedDateTime?: string;
            /**
             * Format: date-time
             * @description While followed: when the carrier is asked next.
             */
            nextFetchDateTime?: string;
        };
        /**
         * @description What a predicted arrival was learned from (docs/predicted-arrival.md, Basis).
         *
         *     - `ACTUAL`: The vessel has arrived: the actual arrival, no interval.
         *     - `CARRIER`: The carrier's ETA corrected by the history of this carrier on all its lanes (too few voyages on this lane).
         *     - `CARRIER_ETA_ONLY`: No usable history: the carrier's ETA itself, with a wide interval.
         *     - `CARRIER_LANE`: The carrier's ETA corrected by the history of this carrier on this lane (port of loading to port of discharge).
         *     - `LANE`: The carrier's ETA corrected by the history of this lane, all carriers together (too few voyages of this carrier on it).
         *     - `TRANSIT`: No carrier ETA yet: the departure plus this lane's transit times.
         * @enum {string}
         */
        EtaBasis: "ACTUAL" | "CARRIER" | "CARRIER_ETA_ONLY" | "CARRIER_LANE" | "LANE" | "TRANSIT";
        /** @description The service's own estimate of the arrival at the port of discharge, with an interval; learned from the service's history, not the carrier's word (that is ShipmentTracking.eta). */
        PredictedArrival: {
            /** @description What the prediction was learned from. */
            basis: components["schemas"]["EtaBasis"];
            /** @description The interval's nominal share of arrivals it holds (0.8: four arrivals in five fall within it). */
            coverage: number;
            /**
             * Format: date-time
             * @description The start of the interval that holds the arrival with the share `coverage`.
             */
            earliestDateTime: string;
            /**
             * Format: date-time
             * @description The predicted arrival at the port of discharge.
             */
            estimatedDateTime: string;
            /**
             * Format: date-time
             * @description The end of the interval that holds the arrival with the share `coverage`.
             */
            latestDateTime: string;
            /** @description How many past voyages the correction learned from (0 for CARRIER_ETA_ONLY). */
            sampleSize: number;
            /**
             * Format: date-time
             * @description When the model was trained; null without a model.
             */
            trainedAt?: string;
        };
        /** @description A webhook subscription request (the spec's SubscriptionRequest): one lookup form of GET /v2/shipments naming a shipment your account may see, or none for every shipment your account sees (those linked later included), where to POST their changes, and which changes. */
        SubscriptionRequest: {
            /** @description Where deliveries are POSTed: https, and not a loopback, private, link-local or metadata address (checked on every address the host resolves to, again at every send). The sandbox also accepts http and loopback. */
            callbackUrl: string;
            /** @description Carrier SCAC code; required with carrierBookingReference. */
            carrierCode?: string;
            /** @description Carrier booking number. */
            carrierBookingReference?: string;
            /** @description Bill of lading number. */
            billOfLadingNumber?: string;
            /** @description Container number. */
            equipmentReference?: string;
            /** @description Default: EVENT_TRIGGER, EXCEPTION_DETECTED, EXCEPTION_RESOLVED, SHIPMENT_MERGED, and SCHEDULED_TRIGGER with an interval; an account-wide subscription (no lookup form) also GRANTED and REVOKED (your account given, or losing, a shipment), which only it may list. See docs/account-feed.md. PREDICTED_ARRIVAL is never a default: list it with predictedArrivalShiftHours and/or predictedLatenessHours. Until the upgrade to this release is finished (docs/upgrading.md), PREDICTED_ARRIVAL, GRANTED, REVOKED and SHIPMENT_MERGED are refused with 409, and the default is EVENT_TRIGGER, EXCEPTION_DETECTED and EXCEPTION_RESOLVED (with SCHEDULED_TRIGGER for an interval). */
            triggerTypes?: ("EVENT_TRIGGER" | "EXCEPTION_DETECTED" | "EXCEPTION_RESOLVED" | "SCHEDULED_TRIGGER" | "SHIPMENT_MERGED" | "GRANTED" | "REVOKED" | "PREDICTED_ARRIVAL")[];
            /** @description Only exception triggers (detected, resolved) of these types; other triggers are not affected. Default: every type. */
            exceptionTypes?: ("ETA_DELAY" | "ROLLOVER" | "MISSED_CONNECTION" | "DEMURRAGE_RISK" | "DETENTION_RISK")[];
            /** @description Only shipments of these carriers. Default: every carrier. */
            carrierCodes?: string[];
            /** @description Seconds between SCHEDULED_TRIGGER refreshes (a subscription with a lookup form only). */
            scheduledIntervalSeconds?: number;
            /** @description PREDICTED_ARRIVAL: push when the predicted arrival (GET /v2/shipments?include=predictedArrival) moved by more than this many hours since the one last pushed to this subscription. Needs PREDICTED_ARRIVAL in triggerTypes and a lookup form. See docs/push.md. */
            predictedArrivalShiftHours?: number;
            /** @description PREDICTED_ARRIVAL: push when the predicted arrival first becomes later than the carrier's planned arrival by at least this many hours while the carrier's own ETA is not yet that late (once per crossing). Needs PREDICTED_ARRIVAL in triggerTypes and a lookup form. */
            predictedLatenessHours?: number;
            /** @description Your own signing secret; default: a 256-bit one is generated and returned once. */
            secret?: string;
        };
        /** @description Optional body of a secret rotation. */
        RotateSecretRequest: {
            /** @description How long the previous secret keeps signing (a second v1 in Tracking-Signature); default 86400. */
            overlapSeconds?: number;
            /** @description Your own new secret; default: generated. */
            secret?: string;
        };
        /** @description Your subscriptions, oldest first. */
        WebhookSubscriptionList: components["schemas"]["WebhookSubscription"][];
        /** @description Deliveries, newest first. */
        WebhookDeliveryList: components["schemas"]["WebhookDelivery"][];
        /** @description A subscription and, this once, its signing secret: store it now. */
        WebhookSubscriptionWithSecret: {
            /**
             * Format: uuid
             * @description UUID of the subscription.
             */
            subscriptionID: string;
            /**
             * Format: uri
             * @description Where deliveries are POSTed.
             */
            callbackUrl: string;
            /** @description The lookup it was created with: carrier SCAC code. */
            carrierCode: string | null;
            /** @description The lookup: carrier booking number. */
            carrierBookingReference: string | null;
            /** @description The lookup: bill of lading number. */
            billOfLadingNumber: string | null;
            /** @description The lookup: container number. */
            equipmentReference?: string;
            /** @description The changes it receives. */
            triggerTypes: components["schemas"]["TriggerType"][];
            /** @description Only exception triggers (detected, resolved) of these types; null for every type. Other triggers are not affected. */
            exceptionTypes?: components["schemas"]["ExceptionType"][];
            /** @description Only shipments of these carriers (SCAC codes); null for every carrier. */
            carrierCodes?: string[];
            /** @description PREDICTED_ARRIVAL: the move of the predicted arrival, hours, that is pushed; null for none. */
            predictedArrivalShiftHours?: number;
            /** @description PREDICTED_ARRIVAL: the lateness against the carrier's planned arrival, hours, that is pushed; null for none. */
            predictedLatenessHours?: number;
            /** @description SHIPMENT: the shipment its lookup named; ACCOUNT: every shipment your account sees, those added later included. */
            coverage: components["schemas"]["WebhookSubscriptionCoverage"];
            /** @description Seconds between SCHEDULED_TRIGGER refreshes; null for none. */
            scheduledIntervalSeconds?: number;
            /** @description ACTIVE or DISABLED. */
            status: components["schemas"]["WebhookSubscriptionStatus"];
            /** @description Why it was disabled. */
            disabledReason?: string;
            /**
             * Format: date-time
             * @description After a secret rotation: until when deliveries are also signed with the previous secret.
             */
            previousSecretExpiresDateTime?: string;
            /**
             * Format: date-time
             * @description When it was created.
             */
            createdDateTime: string;
            /**
             * Format: date-time
             * @description When it last changed.
             */
            updatedDateTime: string;
            /** @description The HMAC-SHA256 signing secret of its deliveries (Tracking-Signature). */
            secret: string;
        };
        /** @description What to track: exactly one of transportDocumentReference, carrierBookingReference (with carrierCode) or equipmentReference; carrierCode is otherwise optional (recognised from the reference's prefix). */
        TrackingRequestInput: {
            /** @description A bill of lading number. */
            transportDocumentReference?: string;
            /** @description A carrier booking reference. */
            carrierBookingReference?: string;
            /** @description A container number (ISO 6346). */
            equipmentReference?: string;
            /** @description The carrier's SCAC code. */
            carrierCode?: string;
        };
        /** @description Your tracking requests, oldest first. */
        TrackingRequestList: components["schemas"]["TrackingRequest"][];
        /** @description Error body of the token endpoint (RFC 6749 section 5.2). */
        OAuthError: {
            /**
             * @description The RFC 6749 error code; the responses below say which status carries which.
             * @enum {string}
             */
            error: "invalid_request" | "invalid_client" | "unsupported_grant_type" | "invalid_scope" | "temporarily_unavailable" | "server_error";
            /** @description What went wrong, for the developer. */
            error_description: string;
        };
        /** @description The public keys that verify access tokens (RFC 7517). */
        JsonWebKeySet: {
            keys: components["schemas"]["JsonWebKey"][];
        };
        /** @description An EC P-256 public key for ES256 signatures; `kid` matches the `kid` header of the tokens it signed. */
        JsonWebKey: {
            /** @constant */
            kty: "EC";
            /** @constant */
            crv: "P-256";
            /** @description x coordinate, base64url. */
            x: string;
            /** @description y coordinate, base64url. */
            y: string;
            /** @description Key id (RFC 7638 thumbprint unless configured). */
            kid: string;
            /** @constant */
            alg: "ES256";
            /** @constant */
            use: "sig";
        };
        /** @description Whether the service can answer: its database responds. */
        Readiness: {
            /**
             * @description `shutting-down` from SIGTERM until the process exits.
             * @enum {string}
             */
            status: "ready" | "unavailable" | "shutting-down";
            /**
             * @description The release answering (semver, package.json's version): during a rolling upgrade, which one a balancer reaches.
             * @example 0.5.0
             */
            version: string;
            /**
             * @description The store in use.
             * @enum {string}
             */
            database: "sqlite" | "mysql";
        };
        /** @description The body of a DCSA 2.2 event notification: the events, in any order. */
        DcsaNotification: Record<string, never>[];
        /** @description An ingest bundle, as `tracking ingest` reads it (docs/carriers.md: Loading data). */
        IngestBundle: {
            /** @description The carrier that published `events`; required with events. */
            carrierCode?: string;
            /**
             * Format: date-time
             * @description When the shipment data of the bundle was true (with a UTC offset): a statement older than the one a shipment holds changes nothing. A shipment may give its own `updatedDateTime`. Absent: the time of ingestion.
             */
            generatedDateTime?: string;
            shipments?: Record<string, never>[];
            events?: Record<string, never>[];
        };
        /** @description What an EDI body (X12 315, EDIFACT IFTSTA) changed: the `--json` summary of `tracking ingest --format` (docs/carriers.md: EDI). Good transactions are stored; each bad one is named in `rejected` and kept as a rejected event (`tracking carrier rejected list`). */
        EdiIngestSummary: {
            /** @enum {string} */
            format: "x12-315" | "iftsta";
            interchanges: {
                /** @description ISA05:ISA06, or UNB 0004(:0007). */
                senderId: string;
                /** @description ISA13 or UNB 0020. */
                controlNumber: string;
                /** @description Received before (same format, sender and control number): nothing was done. */
                alreadyReceived: boolean;
                transactions: number;
                transactionsRejected: number;
            }[];
            transactions: number;
            transactionsRejected: number;
            eventsStored: number;
            eventsAlreadyStored: number;
            eventsUnlinked: number;
            shipmentsRefreshed: number;
            rejected: {
                interchange: string;
                /** @description ST02 or UNH 0062. */
                transaction: string;
                /** @description The segment at fault; null for the transaction as a whole. */
                segment: string | null;
                /** @description Its position in the transaction (ST or UNH is 1). */
                position: number | null;
                reason: string;
            }[];
        };
        /** @description What the bundle changed: the `--json` summary of `tracking ingest`. */
        IngestSummary: {
            shipmentsCreated: number;
            /** @description Existing shipments whose master data, containers or accounts changed. */
            shipmentsUpdated: number;
            /** @description Shipment entries that changed no master data or containers: the shipment already holds this statement or a newer one (by `generatedDateTime`/`updatedDateTime`, or the same content stated before without a time). Their accounts are still granted. */
            shipmentsOutdated: number;
            eventsStored: number;
            /** @description Skipped: their eventID was already stored. */
            eventsAlreadyStored: number;
            /** @description Stored, matching no shipment yet (linked when it arrives). */
            eventsUnlinked: number;
            shipmentsRefreshed: number;
            /** @description The exception transitions the bundle caused, in order. */
            exceptionTransitions: {
                /** @enum {string} */
                kind: "DETECTED" | "UPDATED" | "RESOLVED";
                exceptionID: string;
                exceptionType: string;
                /** @description The event that caused it. */
                eventID?: string;
            }[];
        };
        /**
         * @description Unique code for the different equipment size/type used for transporting commodities. The code is a concatenation of ISO Equipment Size Code and ISO Equipment Type Code A and follows the ISO 6346 standard.
         * @example 22GP
         */
        "Dcsa.ISOEquipmentCode": string;
        /**
         * @description The UN Location code specifying where the place is located.
         * @example FRPAR
         */
        "Dcsa.UNLocationCode": string;
        /** @description An object for storing address related information */
        "Dcsa.address": {
            name?: components["schemas"]["Dcsa.addressName"];
        } & {
            street?: components["schemas"]["Dcsa.streetName"];
        } & {
            streetNumber?: components["schemas"]["Dcsa.streetNumber"];
        } & {
            floor?: components["schemas"]["Dcsa.floor"];
        } & {
            postCode?: components["schemas"]["Dcsa.postCode"];
        } & {
            city?: components["schemas"]["Dcsa.cityName"];
        } & {
            stateRegion?: components["schemas"]["Dcsa.stateRegion"];
        } & {
            country?: components["schemas"]["Dcsa.country"];
        };
        /**
         * @description Name of the address
         * @example Henrik
         */
        "Dcsa.addressName": string;
        /** @description The equipment event entity is a specialization of the event entity to support specification of data that only applies to an equipment event. */
        "Dcsa.baseEquipmentEvent": {
            /**
             * @example EQUIPMENT
             * @enum {string}
             */
            eventType?: "EQUIPMENT";
        } & {
            /**
             * @description Code for the event classifier can be
             *     - PLN (Planned)
             *     - ACT (Actual)
             *     - EST (Estimated)
             * @example EST
             * @enum {string}
             */
            eventClassifierCode?: "PLN" | "ACT" | "EST";
        } & {
            equipmentEventTypeCode: components["schemas"]["Dcsa.equipmentEventTypeCode"];
        } & {
            equipmentReference?: components["schemas"]["Dcsa.equipmentReference"];
        } & {
            ISOEquipmentCode?: components["schemas"]["Dcsa.ISOEquipmentCode"];
        } & {
            emptyIndicatorCode: components["schemas"]["Dcsa.emptyIndicatorCode"];
        } & {
            eventLocation?: components["schemas"]["Dcsa.location"];
        } & {
            transportCallID?: components["schemas"]["Dcsa.transportCallID"] & unknown & unknown;
        } & {
            transportCall?: components["schemas"]["Dcsa.transportCall"];
        } & {
            documentReferences?: components["schemas"]["Dcsa.documentReferences"];
        } & components["schemas"]["Dcsa.references"] & components["schemas"]["Dcsa.seals"] & {
            eventTypeCode?: components["schemas"]["Dcsa.eventTypeCode"];
        } & {
            /**
             * @deprecated
             * @description Unique identifier for Event Type Code, for transport events this is either
             *     - LOAD (Loaded)
             *     - DISC (Discharged)
             *     - GTIN (Gated in)
             *     - GTOT (Gated out)
             *     - STUF (Stuffed)
             *     - STRP (Stripped)
             *
             *     Deprecated - use equipmentEventTypeCode instead
             * @enum {string}
             */
            eventTypeCode?: "LOAD" | "DISC" | "GTIN" | "GTOT" | "STUF" | "STRP";
        };
        "Dcsa.baseEvent": {
            eventID?: components["schemas"]["Dcsa.eventID"];
        } & {
            eventCreatedDateTime: components["schemas"]["Dcsa.eventCreatedDateTime"];
        } & components["schemas"]["Dcsa.baseEventBody"];
        /** @description The Event entity is described as a generalization of all the specific event categories. An event always takes place in relation to a shipment and can additionally be linked to a transport or an equipment */
        "Dcsa.baseEventBody": {
            eventType: components["schemas"]["Dcsa.eventType"];
        } & {
            eventClassifierCode: components["schemas"]["Dcsa.eventClassifierCode"];
        } & {
            eventDateTime: components["schemas"]["Dcsa.eventDateTime"];
        };
        /** @description The shipment event entity is a specialization of the event entity to support specification of data that only applies to a shipment event. */
        "Dcsa.baseShipmentEvent": {
            /**
             * @example SHIPMENT
             * @enum {string}
             */
            eventType?: "SHIPMENT";
        } & {
            /** @description Value for eventDateTime must be the same value as eventCreatedDateTime */
            eventDateTime?: unknown;
        } & {
            /**
             * @description Code for the event classifier can be
             *     - ACT (Actual)
             *     - PLN (Planned)
             *     - EST (Estimated)
             * @example ACT
             * @enum {string}
             */
            eventClassifierCode?: "ACT" | "PLN" | "EST";
        } & {
            shipmentEventTypeCode: components["schemas"]["Dcsa.shipmentEventTypeCode"];
        } & {
            documentID: components["schemas"]["Dcsa.documentID"];
        } & {
            documentTypeCode: components["schemas"]["Dcsa.documentTypeCode"];
        } & {
            shipmentInformationTypeCode?: components["schemas"]["Dcsa.shipmentInformationType"];
        } & {
            reason?: components["schemas"]["Dcsa.reason"];
        } & {
            eventTypeCode?: components["schemas"]["Dcsa.eventTypeCode"];
        } & {
            /**
             * @deprecated
             * @description Unique identifier for Event Type Code. For shipment events this can be
             *     - RECE (Received)
             *     - CONF (Confirmed)
             *     - ISSU (Issued)
             *     - APPR (Approved)
             *     - SUBM (Submitted)
             *     - SURR (Surrendered)
             *     - REJE (Rejected)
             *     - PENA (Pending approval)
             *
             *     Deprecated - use shipmentEventTypeCode instead
             * @example RECE
             * @enum {string}
             */
            eventTypeCode?: "RECE" | "CONF" | "ISSU" | "APPR" | "SUBM" | "SURR" | "REJE" | "PENA";
        } & {
            shipmentID?: components["schemas"]["Dcsa.shipmentID"];
        } & {
            /**
             * @deprecated
             * @description ID uniquely identifying a shipment.
             *
             *     Deprecated - this is replaced by documentID which can contain different values depending on the value of the documentTypeCode field
             */
            shipmentID?: unknown;
        } & components["schemas"]["Dcsa.references"];
        /** @description The transport event entity is a specialization of the event entity to support specification of data that only applies to a transport event. */
        "Dcsa.baseTransportEvent": {
            /**
             * @example TRANSPORT
             * @enum {string}
             */
            eventType?: "TRANSPORT";
        } & {
            /**
             * @description Code for the event classifier can be
             *     - ACT (Actual)
             *     - PLN (Planned)
             *     - EST (Estimated)
             * @example ACT
             * @enum {string}
             */
            eventClassifierCode?: "ACT" | "PLN" | "EST";
        } & {
            transportEventTypeCode: components["schemas"]["Dcsa.transportEventTypeCode"];
        } & {
            delayReasonCode?: components["schemas"]["Dcsa.delayReasonCode"];
        } & {
            vesselScheduleChangeRemark?: components["schemas"]["Dcsa.vesselScheduleChangeRemark"];
        } & {
            changeRemark?: components["schemas"]["Dcsa.changeRemark"];
        } & {
            transportCallID?: components["schemas"]["Dcsa.transportCallID"] & unknown & unknown;
        } & {
            transportCall: components["schemas"]["Dcsa.transportCall"];
        } & {
            eventTypeCode?: components["schemas"]["Dcsa.eventTypeCode"];
        } & {
            /**
             * @deprecated
             * @description Unique identifier for Event Type Code, for transport events this is either
             *     - ARRI (Arrival)
             *     - DEPA (Departure)
             *
             *     Deprecated - use transportEventTypeCode instead
             * @enum {string}
             */
            eventTypeCode?: "ARRI" | "DEPA";
        };
        /**
         * Format: uri
         * @description The endPoint where a Carrier whould send back events to the Shipper. The callback can contain query parameters uniquely identifying the originator of the events.
         * @example https://myserver.com/send/callback/here?shipperRef=<shipper defined unique id>
         */
        "Dcsa.callbackUrl": string;
        /**
         * @description A set of unique characters provided by carrier to identify a booking.
         * @example ABC709951
         */
        "Dcsa.carrierBookingReference": string;
        /**
         * @description The code of the service for which the schedule details are published.
         * @example FE1
         */
        "Dcsa.carrierServiceCode": string;
        /**
         * @description The vessel operator-specific identifier of the Voyage.
         * @example 2103S
         */
        "Dcsa.carrierVoyageNumber": string;
        /**
         * @description Free text information provided by the vessel operator regarding the reasons for the change in schedule and/or plans to mitigate schedule slippage.
         * @example Bad weather
         */
        "Dcsa.changeRemark": string;
        /**
         * @description The city name of the party’s address.
         * @example København
         */
        "Dcsa.cityName": string;
        /**
         * @description The country of the party’s address.
         * @example Denmark
         */
        "Dcsa.country": string;
        /**
         * @description Reason code for the delay. The SMDG-Delay-Reason-Codes are used for this attribute. The code list can be found at http://www.smdg.org/smdg-code-lists/
         * @example WEA
         */
        "Dcsa.delayReasonCode": string;
        /**
         * @description The id of the object defined by the documentTypeCode.
         * @example the-id-of-the-documentTypeCode
         */
        "Dcsa.documentID": string;
        /**
         * @description An optional list of key-value (documentReferenceType-documentReferenceValue) pairs representing links to objects relevant to the event. The <b>documentReferenceType</b>-field is used to describe where the <b>documentReferenceValue</b>-field is pointing to.
         * @example [
         *       {
         *         "documentReferenceType": "BKG",
         *         "documentReferenceValue": "ABC123123123"
         *       },
         *       {
         *         "documentReferenceType": "TRD",
         *         "documentReferenceValue": "85943567-eedb-98d3-f4ed-aed697474ed4"
         *       }
         *     ]
         */
        "Dcsa.documentReferences": components["schemas"]["Dcsa.documentReferences_inner"][];
        "Dcsa.documentReferences_inner": {
            /**
             * @description Describes where the documentReferenceValue is pointing to
             * @example BKG
             * @enum {string}
             */
            documentReferenceType?: "BKG" | "TRD";
            /**
             * @description The value of the identifier the documentReferenceType is describing
             * @example 123e4567-e89b-12d3-a456-426614174000
             */
            documentReferenceValue?: string;
        };
        /**
         * @description The code to identify the type of information documentID points to. Can be one of the following values
         *     - CBR (Carrier Booking Request Reference)
         *     - BKG (Booking)
         *     - SHI (Shipping Instruction)
         *     - SRM (Shipment Release Message)
         *     - TRD (Transport Document)
         *     - ARN (Arrival Notice)
         *     - VGM (Verified Gross Mass)
         *     - CAS (Cargo Survey)
         *     - CUS (Customs Inspection)
         *     - DGD (Dangerous Goods Declaration)
         *     - OOG (Out of Gauge)
         *
         *     More details can be found on <a href="https://github.com/dcsaorg/DCSA-Information-Model/blob/master/datamodel/referencedata.d/documenttypecodes.csv">GitHub</a>
         * @example SHI
         * @enum {string}
         */
        "Dcsa.documentTypeCode": "CBR" | "BKG" | "SHI" | "SRM" | "TRD" | "ARN" | "VGM" | "CAS" | "CUS" | "DGD" | "OOG";
        /**
         * @description List of documentTypeCode to filter by. If multiple values are selected - the OR-operator will be used.
         *
         *     Default is none as it will not filter on documentTypeCode if not specified.
         * @example [
         *       "SHI",
         *       "TRD"
         *     ]
         */
        "Dcsa.documentTypeCodes": components["schemas"]["Dcsa.documentTypeCode"][];
        /**
         * @description Code to denote whether the equipment is empty or laden.
         * @example EMPTY
         * @enum {string}
         */
        "Dcsa.emptyIndicatorCode": "EMPTY" | "LADEN";
        "Dcsa.equipmentEvent": components["schemas"]["Dcsa.baseEvent"] & components["schemas"]["Dcsa.baseEquipmentEvent"];
        /**
         * @description Unique identifier for equipmentEventTypeCode.
         *     - LOAD (Loaded)
         *     - DISC (Discharged)
         *     - GTIN (Gated in)
         *     - GTOT (Gated out)
         *     - STUF (Stuffed)
         *     - STRP (Stripped)
         *     - PICK (Pick-up)
         *     - DROP (Drop-off)
         *     - INSP (Inspected)
         *     - RSEA (Resealed)
         *     - RMVD (Removed)
         *
         *     More details can be found on <a href="https://github.com/dcsaorg/DCSA-Information-Model/blob/master/datamodel/referencedata.d/equipmenteventtypecodes.csv">GitHub</a>
         * @example LOAD
         * @enum {string}
         */
        "Dcsa.equipmentEventTypeCode": "LOAD" | "DISC" | "GTIN" | "GTOT" | "STUF" | "STRP" | "PICK" | "DROP" | "INSP" | "RSEA" | "RMVD";
        /**
         * @description List of equipmentEventTypeCode to filter by. If multiple values are selected - the OR-operator will be used.
         *
         *     Default is none as it will not filter on equipmentEventTypeCode if not specified.
         * @example [
         *       "GTIN",
         *       "GTOT"
         *     ]
         */
        "Dcsa.equipmentEventTypeCodes": components["schemas"]["Dcsa.equipmentEventTypeCode"][];
        /**
         * @description The unique identifier for the equipment, which should follow the BIC ISO Container Identification Number where possible.
         *     According to ISO 6346, a container identification code consists of a 4-letter prefix and a 7-digit number (composed of a 3-letter owner code, a category identifier, a serial number, and a check-digit). If a container does not comply with ISO 6346, it is suggested to follow Recommendation #2 “Container with non-ISO identification” from SMDG.
         * @example APZU4812090
         */
        "Dcsa.equipmentReference": string;
        "Dcsa.equipmentSubscriptionBody": {
            equipmentEventTypeCode?: components["schemas"]["Dcsa.equipmentEventTypeCodes"];
        } & {
            equipmentReference?: components["schemas"]["Dcsa.equipmentReference"];
        } & {
            UNLocationCode?: components["schemas"]["Dcsa.UNLocationCode"];
        };
        "Dcsa.error": {
            /**
             * @description The HTTP request method type
             * @example POST
             */
            httpMethod: string;
            /**
             * @description The request URI.
             * @example https://dcsa.org/dcsa/tnt/v1/events
             */
            requestUri: string;
            errors: components["schemas"]["Dcsa.subErrors"];
            /**
             * @description The HTTP status code
             * @example 400
             */
            statusCode: number;
            /**
             * @description The textual representation of the response status.
             * @example Bad Request
             */
            statusCodeText: string;
            /**
             * Format: date-time
             * @description The date and time (in ISO 8601 format) the error occurred.
             * @example 2019-11-12T07:41:00+08:30
             */
            errorDateTime: string;
        };
        /** @description Code for the event classifier. Values can vary depending on eventType */
        "Dcsa.eventClassifierCode": string;
        /**
         * Format: date-time
         * @description The timestamp of when the event was created.
         *
         *     <b>NB</b>&#58; This field should be considered Metadata
         * @example 2021-01-09T14:12:56+01:00
         */
        "Dcsa.eventCreatedDateTime": string;
        /**
         * Format: date-time
         * @description The local date and time, where the event took place or when the event will take place, in ISO 8601 format.
         * @example 2019-11-12T07:41:00+08:30
         */
        "Dcsa.eventDateTime": string;
        /**
         * Format: uuid
         * @description The unique identifier for the event (the message - not the source).
         *
         *     <b>NB</b>&#58; This field should be considered Metadata
         * @example 3cecb101-7a1a-43a4-9d62-e88a131651e2
         */
        "Dcsa.eventID": string;
        /**
         * @description The Event Type of the object - to be used as a discriminator.
         *
         *     <b>NB</b>&#58; This field should be considered Metadata
         */
        "Dcsa.eventType": string;
        /**
         * @deprecated
         * @description Deprecated - Unique identifier for Event Type Code. This has been replaced by Specialized eventTypeCodes: shipmentEventTypeCode, transportEventTypeCode, equipmentEventTypeCode and opertaionsEventType
         * @example ARRI
         */
        "Dcsa.eventTypeCode": string;
        /**
         * @description List of eventType to filter by. If multiple values are selected - the OR-operator will be used.
         *
         *     Possible values are
         *     - SHIPMENT (Shipment events)
         *     - TRANSPORT (Transport events)
         *     - EQUIPMENT (Equipment events)
         *
         *     Default is none as it will not filter on eventType if not specified.
         * @example [
         *       "TRANSPORT",
         *       "EQUIPMENT"
         *     ]
         */
        "Dcsa.eventTypes": ("SHIPMENT" | "TRANSPORT" | "EQUIPMENT")[];
        /**
         * @description The vessel operator-specific identifier of the export Voyage.
         * @example 2103S
         */
        "Dcsa.exportVoyageNumber": string;
        /**
         * @description The code used for identifying the specific facility. This code does <b>not</b> include the UN Location Code.
         * @example ADT
         */
        "Dcsa.facilityCode": string;
        /**
         * @description The provider used for identifying the facility Code
         * @example SMDG
         * @enum {string}
         */
        "Dcsa.facilityCodeListProvider": "BIC" | "SMDG";
        /**
         * @description A specialized version of the facilityCode to be used in TransportCalls. The code to identify the specific type of facility.
         *     - BOCR (Border crossing)
         *     - CLOC (Customer location)
         *     - COFS (Container freight station)
         *     - COYA (Deprecated - use OFFD intead)
         *     - OFFD (Off dock storage)
         *     - DEPO (Depot)
         *     - INTE (Inland terminal)
         *     - POTE (Port terminal)
         *     - RAMP (Ramp)
         * @example POTE
         * @enum {string}
         */
        "Dcsa.facilityTypeCodeTRN": "BOCR" | "CLOC" | "COFS" | "COYA" | "OFFD" | "DEPO" | "INTE" | "POTE" | "RAMP";
        /**
         * @description The floor of the party’s street number.
         * @example 5. sal
         */
        "Dcsa.floor": string;
        /**
         * @description The vessel operator-specific identifier of the import Voyage.
         * @example 2103N
         */
        "Dcsa.importVoyageNumber": string;
        /**
         * @description Geographic coordinate that specifies the north–south position of a point on the Earth&apos;s surface.
         * @example 48.8585500
         */
        "Dcsa.latitude": string;
        /** @description generally used to capture location-related data, also for locations without UN Location Codes. */
        "Dcsa.location": {
            locationName?: components["schemas"]["Dcsa.locationName"];
        } & {
            latitude?: components["schemas"]["Dcsa.latitude"];
        } & {
            longitude?: components["schemas"]["Dcsa.longitude"];
        } & {
            UNLocationCode?: components["schemas"]["Dcsa.UNLocationCode"];
        } & {
            facilityCode?: components["schemas"]["Dcsa.facilityCode"];
        } & {
            facilityCodeListProvider?: components["schemas"]["Dcsa.facilityCodeListProvider"];
        } & {
            /** @description Address related information */
            address?: components["schemas"]["Dcsa.address"];
        };
        /**
         * @description The name of the location.
         * @example Eiffel Tower
         */
        "Dcsa.locationName": string;
        /**
         * @description Geographic coordinate that specifies the east–west position of a point on the Earth&apos;s surface.
         * @example 2.294492036
         */
        "Dcsa.longitude": string;
        /**
         * @description The mode of transport as defined by DCSA.
         * @enum {string}
         */
        "Dcsa.modeOfTransport": "VESSEL" | "RAIL" | "TRUCK" | "BARGE";
        "Dcsa.operationsTransportEvent": components["schemas"]["Dcsa.baseEvent"] & components["schemas"]["Dcsa.baseTransportEvent"];
        /**
         * @description An alternative way to capture the facility when no standardized DCSA facility code can be found.
         * @example Depot location or address
         */
        "Dcsa.otherFacility": string;
        /**
         * @description The post code of the party’s address.
         * @example 1306
         */
        "Dcsa.postCode": string;
        /**
         * @description Reason field in a Shipment event. This field can be used to explain why a specific event has been sent.
         * @example The following attributes are missing...
         */
        "Dcsa.reason": string;
        /** @description references provided by the shipper or freight forwarder at the time of booking or at the time of providing shipping instruction. Carriers share it back when providing track and trace event updates, some are also printed on the B/L. Customers can use these references to track shipments in their internal systems. */
        "Dcsa.reference": {
            referenceType: components["schemas"]["Dcsa.referenceType"];
        } & {
            referenceValue: components["schemas"]["Dcsa.referenceValue"];
        };
        /**
         * @description The reference type codes defined by DCSA.
         *     - FF (Freight Forwarder’s Reference)
         *     - SI (Shipper’s Reference)
         *     - PO (Purchase Order Reference)
         *     - CR (Customer’s Reference)
         *     - AAO (Consignee’s Reference)
         *     - EQ (Equipment Reference)
         * @example FF
         * @enum {string}
         */
        "Dcsa.referenceType": "FF" | "SI" | "PO" | "CR" | "AAO" | "EQ";
        /** @description The actual value of the reference. */
        "Dcsa.referenceValue": string;
        "Dcsa.references": {
            references?: components["schemas"]["Dcsa.reference"][];
        };
        /**
         * Format: uuid
         * @description ID uniquely identifying a schedule
         * @example 9679a405-3316-42a5-8533-aba000f5689c
         */
        "Dcsa.scheduleID": string;
        /** @description addresses the seal-related information associated with the shipment equipment. A seal is put on a shipment equipment once it is loaded. This seal is meant to stay on until the shipment equipment reaches its final destination. */
        "Dcsa.seal": {
            sealNumber: components["schemas"]["Dcsa.sealNumber"];
        } & {
            sealSource?: components["schemas"]["Dcsa.sealSource"];
        } & {
            sealType: components["schemas"]["Dcsa.sealType"];
        };
        /** @description Identifies a seal affixed to the container. */
        "Dcsa.sealNumber": string;
        /**
         * @description The source of the seal, namely who has affixed the seal. This attribute links to the Seal Source ID defined in the Seal Source reference data entity.
         *     - CAR (Carrier)
         *     - SHI (Shipper)
         *     - PHY (Phytosanitary)
         *     - VET (Veterinary)
         *     - CUS (Customs)
         * @example CUS
         * @enum {string}
         */
        "Dcsa.sealSource": "CAR" | "SHI" | "PHY" | "VET" | "CUS";
        /**
         * @description The type of seal. This attribute links to the Seal Type ID defined in the Seal Type reference data entity.
         *     - KLP (Keyless padlock)
         *     - BLT (Bolt)
         *     - WIR (Wire)
         * @example WIR
         * @enum {string}
         */
        "Dcsa.sealType": "KLP" | "BLT" | "WIR";
        "Dcsa.seals": {
            seals?: components["schemas"]["Dcsa.seal"][];
        };
        /**
         * Format: byte
         * @description A Base64 encoded secret shared between the Publisher and the Subscriber.
         *     It is used to compute the contents of the Notification-Signature header.
         * @example TVRJek5EVTJOemc1TURFeU16UTFOamM0T1RBeE1qTTBOVFkzT0Rrd01USXpORE0yTlRjNE5qSXpPRGszTkRZNU1EZ3lOek0wT1RnM01USXpOemcyTkE9PQ==
         */
        "Dcsa.secret": string;
        "Dcsa.shipmentEvent": components["schemas"]["Dcsa.baseEvent"] & components["schemas"]["Dcsa.baseShipmentEvent"];
        /**
         * @description The status of the document in the process. Possible values are
         *     - RECE (Received)
         *     - DRFT (Drafted)
         *     - PENA (Pending Approval)
         *     - PENU (Pending Update)
         *     - REJE (Rejected)
         *     - APPR (Approved)
         *     - ISSU (Issued)
         *     - SURR (Surrendered)
         *     - SUBM (Submitted)
         *     - VOID (Void)
         *     - CONF (Confirmed)
         *     - REQS (Requested)
         *     - CMPL (Completed)
         *     - HOLD (On Hold)
         *     - RELS (Released)
         *
         *     More details can be found on <a href="https://github.com/dcsaorg/DCSA-Information-Model/blob/master/datamodel/referencedata.d/shipmenteventtypecodes.csv">GitHub</a>
         * @example DRFT
         * @enum {string}
         */
        "Dcsa.shipmentEventTypeCode": "RECE" | "DRFT" | "PENA" | "PENU" | "REJE" | "APPR" | "ISSU" | "SURR" | "SUBM" | "VOID" | "CONF" | "REQS" | "CMPL" | "HOLD" | "RELS";
        /**
         * @description List of shipmentEventTypeCode to filter by. If multiple values are selected - the OR-operator will be used.
         *
         *     Default is none as it will not filter on shipmentEventTypeCode if not specified.
         * @example [
         *       "RECE",
         *       "DRFT"
         *     ]
         */
        "Dcsa.shipmentEventTypeCodes": components["schemas"]["Dcsa.shipmentEventTypeCode"][];
        /**
         * Format: uuid
         * @description The identifier for a shipment
         * @example c32d56f3-a4a5-4964-bb49-abd168b06160
         */
        "Dcsa.shipmentID": string;
        /**
         * @deprecated
         * @description The code to identify the type of information documentID points to. Can be one of the following values
         *     - BOK (Booking - deprecated use BKG instead)
         *     - BKG (Booking)
         *     - SHI (Shipping Instruction)
         *     - VGM (Verified Gross Mass)
         *     - SRM (Shipment Release Message)
         *     - TRD (Transport Document)
         *     - ARN (Arrival Notice)
         *
         *     <b>Deprecated</b> - use documentTypeCode instead
         * @example SHI
         * @enum {string}
         */
        "Dcsa.shipmentInformationType": "BOK" | "BKG" | "SHI" | "VGM" | "SRM" | "TRD" | "ARN";
        "Dcsa.shipmentSubscriptionBody": {
            shipmentEventTypeCode?: components["schemas"]["Dcsa.shipmentEventTypeCodes"];
        } & {
            documentTypeCode?: components["schemas"]["Dcsa.documentTypeCodes"];
        } & {
            carrierBookingReference?: components["schemas"]["Dcsa.carrierBookingReference"];
        } & {
            /**
             * @deprecated
             * @description The identifier for a shipment, which is issued by and unique within each of the carriers.
             *
             *     Deprecated - use carrierBookingReference instead
             * @example ABC709951
             */
            bookingReference?: string;
        } & {
            /**
             * Format: uuid
             * @deprecated
             * @description Uniquely identify a transport document.
             *
             *     Deprecated - use transportDocumentReference instead
             */
            transportDocumentID?: string;
        } & {
            transportDocumentReference?: components["schemas"]["Dcsa.transportDocumentReference"];
        } & {
            transportDocumentTypeCode?: components["schemas"]["Dcsa.transportDocumentTypeCodes"] & unknown & unknown;
        };
        /**
         * @description The state/region of the party’s address.
         * @example N/A
         */
        "Dcsa.stateRegion": string;
        /**
         * @description The name of the street of the party’s address.
         * @example Kronprincessegade
         */
        "Dcsa.streetName": string;
        /**
         * @description The number of the street of the party’s address.
         * @example 54
         */
        "Dcsa.streetNumber": string;
        "Dcsa.subErrors": components["schemas"]["Dcsa.subErrors_inner"][];
        "Dcsa.subErrors_inner": {
            /**
             * @description High level error message.
             * @example invalidQuery
             */
            reason: string;
            /**
             * @description Detailed error message.
             * @example The request did not contain one of the three required query parameters.
             */
            message: string;
        };
        "Dcsa.subscription": {
            subscriptionID?: components["schemas"]["Dcsa.subscriptionID"];
        } & components["schemas"]["Dcsa.subscriptionBody"];
        "Dcsa.subscriptionBody": {
            callbackUrl: components["schemas"]["Dcsa.callbackUrl"];
        } & {
            eventType?: components["schemas"]["Dcsa.eventTypes"];
        } & components["schemas"]["Dcsa.shipmentSubscriptionBody"] & components["schemas"]["Dcsa.transportSubscriptionBody"] & components["schemas"]["Dcsa.equipmentSubscriptionBody"];
        "Dcsa.subscriptionBodyWithSecret": components["schemas"]["Dcsa.subscriptionBody"] & {
            secret: components["schemas"]["Dcsa.secret"] & unknown;
        };
        /**
         * Format: uuid
         * @description The carrier issues a unique ID to the shipper or consignee for that subscription
         * @example 8fbdc2d8-57c8-48b9-a04b-18fd8ec1d809
         */
        "Dcsa.subscriptionID": string;
        "Dcsa.subscriptionID_secret_body": {
            secret?: components["schemas"]["Dcsa.secret"];
        };
        "Dcsa.transportCall": {
            transportCallID: components["schemas"]["Dcsa.transportCallID"];
        } & {
            carrierServiceCode?: components["schemas"]["Dcsa.carrierServiceCode"];
        } & {
            carrierVoyageNumber?: components["schemas"]["Dcsa.carrierVoyageNumber"];
        } & {
            /**
             * @deprecated
             * @description The vessel operator-specific identifier of the Voyage.
             *
             *     In case there are multiple voyages the export voyage is chosen.
             */
            carrierVoyageNumber?: unknown;
        } & {
            exportVoyageNumber?: components["schemas"]["Dcsa.exportVoyageNumber"];
        } & {
            importVoyageNumber?: components["schemas"]["Dcsa.importVoyageNumber"];
        } & {
            transportCallSequenceNumber?: components["schemas"]["Dcsa.transportCallSequenceNumber"];
        } & {
            UNLocationCode?: components["schemas"]["Dcsa.UNLocationCode"];
        } & {
            facilityCode?: components["schemas"]["Dcsa.facilityCode"];
        } & {
            facilityCodeListProvider?: components["schemas"]["Dcsa.facilityCodeListProvider"];
        } & {
            facilityTypeCode?: components["schemas"]["Dcsa.facilityTypeCodeTRN"];
        } & {
            otherFacility?: components["schemas"]["Dcsa.otherFacility"];
        } & {
            modeOfTransport: components["schemas"]["Dcsa.modeOfTransport"];
        } & {
            location?: components["schemas"]["Dcsa.location"] & Record<string, never>;
        } & {
            vessel?: components["schemas"]["Dcsa.vessel"];
        };
        /**
         * @description The unique identifier for a transport call
         * @example 123e4567-e89b-12d3-a456-426614174000
         */
        "Dcsa.transportCallID": string;
        /**
         * @description Transport operator&apos;s key that uniquely identifies each individual call. This key is essential to distinguish between two separate calls at the same location within one voyage.
         * @example 2
         */
        "Dcsa.transportCallSequenceNumber": number;
        /** @description A unique number allocated by the shipping line to the transport document and the main number used for the tracking of the status of the shipment. */
        "Dcsa.transportDocumentReference": string;
        /**
         * @description Specifies the type of the transport document (a Bill of Lading (BOL) or a Sea Waybill (SWB)).
         * @example SWB
         * @enum {string}
         */
        "Dcsa.transportDocumentType": "BOL" | "SWB";
        /**
         * @description List of transportDocumentType to filter by. If multiple values are selected - the OR-operator will be used.
         *
         *     Default is none as it will not filter on transportDocumentType if not specified.
         * @example [
         *       "BOL"
         *     ]
         */
        "Dcsa.transportDocumentTypeCodes": components["schemas"]["Dcsa.transportDocumentType"][];
        "Dcsa.transportEvent": components["schemas"]["Dcsa.operationsTransportEvent"] & {
            documentReferences?: components["schemas"]["Dcsa.documentReferences"];
        } & components["schemas"]["Dcsa.references"];
        /**
         * @description Identifier for type of Transport event
         *     - ARRI (Arrived)
         *     - DEPA (Departed)
         *
         *     More details can be found on <a href="https://github.com/dcsaorg/DCSA-Information-Model/blob/master/datamodel/referencedata.d/transporteventtypecodes.csv">GitHub</a>
         * @example ARRI
         * @enum {string}
         */
        "Dcsa.transportEventTypeCode": "ARRI" | "DEPA";
        /**
         * @description List of transportEventTypeCode to filter by. If multiple values are selected - the OR-operator will be used.
         *
         *     Default is none as it will not filter on transportEventTypeCode if not specified.
         * @example [
         *       "ARRI",
         *       "DEPA"
         *     ]
         */
        "Dcsa.transportEventTypeCodes": components["schemas"]["Dcsa.transportEventTypeCode"][];
        "Dcsa.transportSubscriptionBody": {
            transportEventTypeCode?: components["schemas"]["Dcsa.transportEventTypeCodes"];
        } & {
            scheduleID?: components["schemas"]["Dcsa.scheduleID"] & unknown & unknown;
        } & {
            transportCallID?: components["schemas"]["Dcsa.transportCallID"];
        } & {
            vesselIMONumber?: components["schemas"]["Dcsa.vesselIMONumber"];
        } & {
            carrierVoyageNumber?: components["schemas"]["Dcsa.carrierVoyageNumber"] & unknown;
        } & {
            exportVoyageNumber?: components["schemas"]["Dcsa.exportVoyageNumber"];
        } & {
            carrierServiceCode?: components["schemas"]["Dcsa.carrierServiceCode"];
        } & {
            UNLocationCode?: components["schemas"]["Dcsa.UNLocationCode"];
        };
        /** @description describes a floating, sea going structure (mother vessels and feeder vessels) with either an internal or external mode of propulsion designed for the transport of cargo and/or passengers. Ocean vessels are uniquely identified by an IMO number consisting of 7 digits, or alternatively by their AIS signal with an MMSI number. */
        "Dcsa.vessel": {
            vesselIMONumber: components["schemas"]["Dcsa.vesselIMONumber"];
        } & {
            vesselName?: components["schemas"]["Dcsa.vesselName"];
        } & {
            vesselFlag?: components["schemas"]["Dcsa.vesselFlag"];
        } & {
            vesselCallSignNumber?: components["schemas"]["Dcsa.vesselCallSignNumber"];
        } & {
            vesselOperatorCarrierCode?: components["schemas"]["Dcsa.vesselOperatorCarrierCode"];
        } & {
            vesselOperatorCarrierCodeListProvider?: components["schemas"]["Dcsa.vesselOperatorCarrierCodeListProvider"];
        };
        /**
         * @description A unique alphanumeric identity that belongs to the vessel and is assigned by the International Telecommunication Union (ITU). It consists of a threeletter alphanumeric prefix that indicates nationality, followed by one to four characters to identify the individual vessel. For instance, vessels registered under Denmark are assigned the prefix ranges 5PA-5QZ, OUAOZZ, and XPA-XPZ. The Call Sign changes whenever a vessel changes its flag.
         * @example NCVV
         */
        "Dcsa.vesselCallSignNumber": string;
        /**
         * @description The flag of the nation whose laws the vessel is registered under. This is the ISO 3166 two-letter country code
         * @example DE
         */
        "Dcsa.vesselFlag": string;
        /**
         * @description The unique reference for a registered Vessel. The reference is the International Maritime Organisation (IMO) number, also sometimes known as the Lloyd&apos;s register code, which does not change during the lifetime of the vessel
         * @example 9321483
         */
        "Dcsa.vesselIMONumber": string;
        /**
         * @description The name of the Vessel given by the Vessel Operator and registered with IMO.
         * @example King of the Seas
         */
        "Dcsa.vesselName": string;
        /**
         * @description The carrier who is in charge of the vessel operation based on either the SMDG or SCAC code lists
         * @example MAEU
         */
        "Dcsa.vesselOperatorCarrierCode": string;
        /**
         * @description Identifies the code list provider used for the operator and partner carriercodes.
         * @example NMFTA
         * @enum {string}
         */
        "Dcsa.vesselOperatorCarrierCodeListProvider": "SMDG" | "NMFTA";
        /**
         * @deprecated
         * @description Free text information provided by the vessel operator regarding the reasons for the change in schedule and/or plans to mitigate schedule slippage.
         *
         *     Deprecated - use changeRemark instead
         * @example Bad weather
         */
        "Dcsa.vesselScheduleChangeRemark": string;
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The request's id, on every response: the caller's X-Request-ID when it is a safe token, else the trace id of its traceparent, else a new UUID. Also in the service's logs and as providerCorrelationReference of a DCSA error body. */
        CorrelationId: string;
        /** @description The same id as X-Correlation-ID, under the common name. */
        RequestId: string;
        /** @description For this client only; a cache must revalidate (If-None-Match) before reusing the body. */
        PrivateNoCache: "private, no-cache";
        /** @description Weak entity tag of the shipment's current snapshot (its shipmentTracking; the transmissionHeader changes on every 200). Send it back as If-None-Match: 304 while the shipment is unchanged. */
        ShipmentEtag: string;
        /** @description Never cache. */
        NoStore: "no-store";
        /** @description Never cache (HTTP/1.0). */
        PragmaNoCache: "no-cache";
        /** @description May be cached for five minutes. */
        PublicCache: "public, max-age=300";
        /** @description RFC 6750 challenge: `error="invalid_token"` (401) or `error="insufficient_scope"` (403). */
        BearerChallenge: string;
        /** @description Present when the client authenticated with HTTP Basic. */
        BasicChallenge: string;
        /** @description Seconds to wait before trying again. */
        RetryAfter: string;
        /** @description The allowed method. */
        AllowGet: "GET";
        /** @description The allowed methods. */
        AllowMethods: string;
        /** @description The new subscription. */
        SubscriptionLocation: string;
        /** @description The tracking request. */
        TrackingRequestLocation: string;
        /** @description Present when there is a next page: pass it as `cursor`. */
        NextPageCursor: string;
        /** @description The allowed method. */
        AllowPost: "POST";
        /** @description The client's quota: requests per window (RateLimit-Policy). */
        RateLimitLimit: string;
        /** @description Requests left in the current window (0 while the burst allowance is used). */
        RateLimitRemaining: string;
        /** @description Seconds until the window resets. */
        RateLimitReset: string;
        /** @description The quota policy: `<limit>;w=<window seconds>`. */
        RateLimitPolicy: string;
        /** @description The version of the standard this service answers in, on every answer of the DCSA routes: 2.2.0. */
        "Dcsa.API-Version": "2.2.0";
        /** @description A link to the current page. The value is a page cursor: send it back as `?cursor=VALUE` (alone, or with the query it was made for). */
        "Dcsa.Current-Page": string;
        /** @description A link to the next page. Next-Page header link MAY be omitted if the current page is the last page. The value is a page cursor: send it back as `?cursor=VALUE` (alone, or with the query it was made for). */
        "Dcsa.Next-Page": string;
        /** @description A link to the previous page. Previous-Page header link MAY be omitted if the current page is the first page. The value is a page cursor: send it back as `?cursor=VALUE` (alone, or with the query it was made for). */
        "Dcsa.Prev-Page": string;
        /** @description A link to thefirst page. First-Page header link MAY be omitted if current page is the first page. The value is a page cursor: send it back as `?cursor=VALUE` (alone, or with the query it was made for). */
        "Dcsa.First-Page": string;
        /** @description A link to the last page. Last-Page header link MAY be omitted if the current page is the last page. The value is a page cursor: send it back as `?cursor=VALUE` (alone, or with the query it was made for). */
        "Dcsa.Last-Page": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    issueToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "grant_type": "client_credentials",
                 *       "client_id": "tt_…",
                 *       "client_secret": "…",
                 *       "scope": "track-and-trace.read"
                 *     }
                 */
                "application/x-www-form-urlencoded": {
                    /**
                     * @description The only grant: client_credentials.
                     * @constant
                     */
                    grant_type: "client_credentials";
                    /** @description The client identifier (unless HTTP Basic is used). */
                    client_id?: string;
                    /** @description The client secret (unless HTTP Basic is used). */
                    client_secret?: string;
                    /** @description Optional, space-separated; default track-and-trace.read. Ask for `track-and-trace.read track-and-trace.subscribe` to manage webhook subscriptions, when an operator has granted the client track-and-trace.subscribe. */
                    scope?: string;
                };
            };
        };
        responses: {
            /** @description The token. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    Pragma: components["headers"]["PragmaNoCache"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /** @description `invalid_request`: a missing grant_type, a repeated parameter, both HTTP Basic and body credentials, a body that is not application/x-www-form-urlencoded. `unsupported_grant_type`: a grant_type other than client_credentials. `invalid_scope`: a scope the client was not granted. */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    Pragma: components["headers"]["PragmaNoCache"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description `invalid_client`: missing credentials, unknown client, wrong secret, disabled client or malformed HTTP Basic. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    Pragma: components["headers"]["PragmaNoCache"];
                    "WWW-Authenticate": components["headers"]["BasicChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description `invalid_request`: a method other than POST. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    Pragma: components["headers"]["PragmaNoCache"];
                    Allow: components["headers"]["AllowPost"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description `invalid_request`: a body over 8 KiB (counted while it is read, chunked too). */
            413: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    Pragma: components["headers"]["PragmaNoCache"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description `temporarily_unavailable`: too many failed client authentications, or the client's quota of tokens is used up; the RateLimit headers come with the latter. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    Pragma: components["headers"]["PragmaNoCache"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description `server_error`: an unexpected failure (details in the logs, under the correlation id). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    Pragma: components["headers"]["PragmaNoCache"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description `temporarily_unavailable`: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    Pragma: components["headers"]["PragmaNoCache"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    lookUpShipment: {
        parameters: {
            query?: {
                /**
                 * @description Carrier SCAC code; required with carrierBookingReference (a booking number is unique only within its carrier).
                 * @example MAEU
                 */
                carrierCode?: string;
                /**
                 * @description Carrier booking number.
                 * @example 262150001
                 */
                carrierBookingReference?: string;
                /**
                 * @description Bill of lading number.
                 * @example MAEU262150002
                 */
                billOfLadingNumber?: string;
                /**
                 * @description Container number: ISO 6346, with a valid check digit.
                 * @example MSKU1357908
                 */
                equipmentReference?: string;
                /**
                 * @description Parts to add to the answer, comma-separated. `predictedArrival`: the service's own arrival estimate in `shipmentTracking.predictedArrival` (docs/predicted-arrival.md). Without it the body and its ETag are exactly those of the lookup alone; with it the ETag also covers the prediction, which moves with time. Any other value is a 400.
                 * @example predictedArrival
                 */
                include?: string;
            };
            header?: {
                /**
                 * @description The ETag of your last 200 for this lookup (or a list of tags, or `*`): 304 with no body while the shipment is unchanged. Authentication and the account rule apply first.
                 * @example W/"p8Kq1Jm3YzV0c2Xn4hT6bR9wLsE"
                 */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The shipment: a Transmission with the full current snapshot. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    ETag: components["headers"]["ShipmentEtag"];
                    "Cache-Control": components["headers"]["PrivateNoCache"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transmission"];
                };
            };
            /** @description Not modified: the shipment is as your If-None-Match tag names it. No body. */
            304: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    ETag: components["headers"]["ShipmentEtag"];
                    "Cache-Control": components["headers"]["PrivateNoCache"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description errorCode 8004: no lookup parameter, carrierCode alone, carrierBookingReference without carrierCode, an unknown or repeated parameter, an unknown include value, or a malformed value. */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7001: a missing, malformed, expired, tampered or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7002: a token without the track-and-trace.read scope. */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8005: nothing matches, the parameters match no single shipment, or the shipment belongs to no account of the client (the same answer: no one learns what exists elsewhere). */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: a method other than GET. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    Allow: components["headers"]["AllowGet"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7429: the client's quota of lookups is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7000: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7003: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSubscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Your subscriptions, oldest first. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSubscriptionList"];
                };
            };
            /** @description errorCode 7001: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7002: a token without the track-and-trace.subscribe scope (an operator grants it per client). */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: a method other than GET, POST. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    Allow: components["headers"]["AllowMethods"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7429: the client's quota of subscription requests (all /v2/subscriptions and /v2/tracking-requests operations together) is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7000: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7003: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionRequest"];
            };
        };
        responses: {
            /** @description Subscribed; the secret is shown this once. */
            201: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    Location: components["headers"]["SubscriptionLocation"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSubscriptionWithSecret"];
                };
            };
            /** @description errorCode 8004: a malformed field (named in `property`), a callback URL the service may not call, an unknown field, or the per-client limit reached. */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7001: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7002: a token without the track-and-trace.subscribe scope (an operator grants it per client). */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8005: no shipment of your account matches the lookup (as GET /v2/shipments would answer). */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: a method other than GET, POST. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    Allow: components["headers"]["AllowMethods"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8004: PREDICTED_ARRIVAL, GRANTED, REVOKED or SHIPMENT_MERGED before the upgrade to this release is finished (`tracking upgrade finish`): instances of the previous release cannot deliver them (docs/upgrading.md). */
            409: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8004: a body over 16 KiB. */
            413: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8004: a body that is not application/json. */
            415: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7429: the client's quota of subscription requests (all /v2/subscriptions and /v2/tracking-requests operations together) is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7000: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7003: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription (yours: another client's is 404). */
                subscriptionID: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSubscription"];
                };
            };
            /** @description errorCode 7001: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7002: a token without the track-and-trace.subscribe scope (an operator grants it per client). */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8005: no such subscription of yours. */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: a method other than GET, DELETE. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    Allow: components["headers"]["AllowMethods"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7429: the client's quota of subscription requests (all /v2/subscriptions and /v2/tracking-requests operations together) is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7000: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7003: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription (yours: another client's is 404). */
                subscriptionID: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description errorCode 7001: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7002: a token without the track-and-trace.subscribe scope (an operator grants it per client). */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8005: no such subscription of yours. */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: a method other than GET, DELETE. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    Allow: components["headers"]["AllowMethods"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7429: the client's quota of subscription requests (all /v2/subscriptions and /v2/tracking-requests operations together) is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7000: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7003: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateSubscriptionSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription (yours: another client's is 404). */
                subscriptionID: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RotateSecretRequest"];
            };
        };
        responses: {
            /** @description The subscription and its new secret. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSubscriptionWithSecret"];
                };
            };
            /** @description errorCode 8004: a malformed field or an unknown one. */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7001: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7002: a token without the track-and-trace.subscribe scope (an operator grants it per client). */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8005: no such subscription of yours. */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: a method other than POST. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    Allow: components["headers"]["AllowMethods"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8004: a body over 16 KiB. */
            413: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8004: a body that is not application/json. */
            415: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7429: the client's quota of subscription requests (all /v2/subscriptions and /v2/tracking-requests operations together) is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7000: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7003: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDeliveries: {
        parameters: {
            query?: {
                /** @description Only deliveries in this state. */
                status?: "PENDING" | "DELIVERED" | "FAILED";
                /** @description At most this many; default 100. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The subscription (yours: another client's is 404). */
                subscriptionID: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deliveries, newest first. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            /** @description errorCode 8004: an unknown parameter or a malformed status or limit. */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7001: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7002: a token without the track-and-trace.subscribe scope (an operator grants it per client). */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8005: no such subscription of yours. */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: a method other than GET. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    Allow: components["headers"]["AllowMethods"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7429: the client's quota of subscription requests (all /v2/subscriptions and /v2/tracking-requests operations together) is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7000: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7003: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAccountChanges: {
        parameters: {
            query?: {
                /** @description A `next` cursor. */
                after?: string;
                /** @description Changes (in the listing: shipments) per page; at most 100 with include=snapshot. */
                limit?: number;
                /** @description Each entry's current snapshot (shipmentTracking, as the lookup returns it). */
                include?: "snapshot";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the feed. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountChangePage"];
                };
            };
            /** @description errorCode 8004: an unknown or repeated parameter, a malformed limit or include, or a cursor the service did not hand out. */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7001: a missing, malformed, expired or foreign token. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7002: a token without the track-and-trace.read scope. */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: a method other than GET. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    Allow: components["headers"]["AllowMethods"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8004: the changes after this cursor are no longer kept; start again without `after`. */
            410: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7429: the client's quota of lookups is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7000: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7003: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription (yours: another client's is 404). */
                subscriptionID: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sent; the receiver's answer. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTrialResult"];
                };
            };
            /** @description errorCode 7001: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7002: a token without the track-and-trace.subscribe scope (an operator grants it per client). */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8005: no such subscription of yours. */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: a method other than POST. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    Allow: components["headers"]["AllowMethods"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: nothing to send (your account sees no shipment), or the callback URL may not receive webhooks now. */
            409: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7429: the client's quota of subscription requests (all /v2/subscriptions and /v2/tracking-requests operations together) is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7000: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7003: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    redeliver: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The subscription (yours: another client's is 404). */
                subscriptionID: string;
                /** @description A delivery of the delivery log. */
                deliveryID: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sent; the receiver's answer. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTrialResult"];
                };
            };
            /** @description errorCode 7001: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7002: a token without the track-and-trace.subscribe scope (an operator grants it per client). */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8005: no such subscription of yours, or no such delivery of it. */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: a method other than POST. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    Allow: components["headers"]["AllowMethods"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: the delivery is still pending, or its shipment or callback URL can no longer be sent to. */
            409: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7429: the client's quota of subscription requests (all /v2/subscriptions and /v2/tracking-requests operations together) is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7000: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7003: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTrackingRequests: {
        parameters: {
            query?: {
                /** @description At most this many, 1 to 500; default 100. */
                limit?: number;
                /** @description The Next-Page-Cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of your requests, oldest first. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Next-Page-Cursor": components["headers"]["NextPageCursor"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrackingRequestList"];
                };
            };
            /** @description errorCode 8004: a bad limit or cursor, or an unknown parameter. */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7001: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7002: a token without the track-and-trace.track scope (an operator grants it per client). */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: a method other than GET, POST. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    Allow: components["headers"]["AllowMethods"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7429: the client's quota of subscription requests (all /v2/subscriptions and /v2/tracking-requests operations together) is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7000: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7003: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTrackingRequest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TrackingRequestInput"];
            };
        };
        responses: {
            /** @description Your active request for this reference. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    Location: components["headers"]["TrackingRequestLocation"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrackingRequest"];
                };
            };
            /** @description Tracking. */
            201: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    Location: components["headers"]["TrackingRequestLocation"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrackingRequest"];
                };
            };
            /** @description errorCode 8004: a malformed or missing reference (named in `property`), an unknown field, a carrier that is not configured, a prefix that names no carrier or several (the candidates named), or the per-client limit reached. */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7001: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7002: a token without the track-and-trace.track scope (an operator grants it per client). */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: a method other than GET, POST. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    Allow: components["headers"]["AllowMethods"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8004: a body over 4 KiB. */
            413: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8004: a body that is not application/json. */
            415: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7429: the client's quota of subscription requests (all /v2/subscriptions and /v2/tracking-requests operations together) is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7000: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7003: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTrackingRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The tracking request (yours: another client's is 404). */
                trackingRequestID: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrackingRequest"];
                };
            };
            /** @description errorCode 7001: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7002: a token without the track-and-trace.track scope (an operator grants it per client). */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8005: no such tracking request of yours. */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: a method other than GET, DELETE. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    Allow: components["headers"]["AllowMethods"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7429: the client's quota of subscription requests (all /v2/subscriptions and /v2/tracking-requests operations together) is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7000: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7003: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    stopTrackingRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The tracking request (yours: another client's is 404). */
                trackingRequestID: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Stopped. */
            204: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description errorCode 7001: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7002: a token without the track-and-trace.track scope (an operator grants it per client). */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8005: no such tracking request of yours. */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: a method other than GET, DELETE. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    Allow: components["headers"]["AllowMethods"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7429: the client's quota of subscription requests (all /v2/subscriptions and /v2/tracking-requests operations together) is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7000: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7003: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveCarrierNotification: {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=` and the hex HMAC-SHA256 of the body under the carrier's secret. */
                "Notification-Signature": string;
            };
            path: {
                /** @description The carrier code (SCAC) an operator configured with `tracking carrier add`. */
                carrierCode: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DcsaNotification"];
                "application/edi-x12": string;
                "application/edifact": string;
            };
        };
        responses: {
            /** @description An EDI body was taken: what it changed and which transactions were rejected. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EdiIngestSummary"];
                };
            };
            /** @description Stored (or already stored). */
            204: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description errorCode 8004: not a JSON array, or invalid events; each error names the event's index and field in `property` (`[3].eventDateTime`). Nothing is ingested; the events are kept as rejected, with their errors, for an operator to replay (docs/carriers.md: Carrier onboarding). */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7001: the Notification-Signature header is missing, malformed, or matches the body under neither the carrier's secret nor (during an overlap) its previous one. Nothing is read further. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8005: no active carrier source with this code (unknown or disabled). */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: a method other than HEAD or POST. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    Allow: components["headers"]["AllowMethods"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8004: a body over TT_CARRIER_NOTIFICATION_MAX_BYTES (5 MiB by default), refused while reading. */
            413: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8004: a body that is not application/json, or an EDI Content-Type of a format the carrier is not configured to send. */
            415: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7000: an unexpected failure; nothing was stored (retry). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7003: the database is down, not ready or too busy; nothing was stored: retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    checkCarrierNotificationUrl: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The carrier code (SCAC) an operator configured with `tracking carrier add`. */
                carrierCode: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An active carrier source: notifications are accepted here. */
            204: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No active carrier source with this code. */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The service could not check (see the logs under X-Correlation-ID). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The database is down, not ready or too busy: check again after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    ingestBundle: {
        parameters: {
            query?: {
                /** @description With an EDI body: the carrier (SCAC) that sent it, configured to send that format (docs/carriers.md: EDI). */
                carrierCode?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IngestBundle"];
                "application/edi-x12": string;
                "application/edifact": string;
            };
        };
        responses: {
            /** @description Ingested: what changed (IngestSummary for a bundle, EdiIngestSummary for EDI). */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestSummary"] | components["schemas"]["EdiIngestSummary"];
                };
            };
            /** @description errorCode 8004: broken JSON (with line and column) or invalid fields, each named in `property` (`events[3].eventDateTime`); an EDI body without carrierCode, or an interchange that cannot be read. Nothing is written. */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7001: a missing, malformed, expired or foreign token. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7002: a token without the tracking-operator.ingest scope. */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8005: an EDI body for no active carrier source with this carrierCode. */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8003: a method other than POST. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    Allow: components["headers"]["AllowPost"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8004: a body over TT_OPERATOR_INGEST_MAX_BYTES (64 MiB by default), refused while reading. */
            413: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 8004: a body that is not application/json, application/edi-x12 or application/edifact, or EDI of a format the carrier is not configured to send. */
            415: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7000: an unexpected failure; nothing was written. */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description errorCode 7003: the database is down, not ready or too busy; nothing was written: retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSigningKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key set. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["PublicCache"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonWebKeySet"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is up (empty body). */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description The database does not answer within 1 s (`unavailable`), or the instance is shutting down (`shutting-down`). */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    dcsaEvents: {
        parameters: {
            query?: {
                /**
                 * @description The type of event(s) to filter by. Possible values are
                 *
                 *     - SHIPMENT (Shipment events)
                 *     - TRANSPORT (Transport events)
                 *     - EQUIPMENT (Equipment events)
                 *
                 *     It is possible to select multiple values by comma (,) separating them. For multiple values the OR-operator is used. For example eventType=SHIPMENT,EQUIPMENT matches both Shipment- and Equipment-events.
                 *
                 *     Default value is all event types.
                 */
                eventType?: ("SHIPMENT" | "TRANSPORT" | "EQUIPMENT")[];
                /**
                 * @description The status of the document in the process to filter by. Possible values are
                 *     - RECE (Received)
                 *     - DRFT (Drafted)
                 *     - PENA (Pending Approval)
                 *     - PENU (Pending Update)
                 *     - REJE (Rejected)
                 *     - APPR (Approved)
                 *     - ISSU (Issued)
                 *     - SURR (Surrendered)
                 *     - SUBM (Submitted)
                 *     - VOID (Void)
                 *     - CONF (Confirmed)
                 *     - REQS (Requested)
                 *     - CMPL (Completed)
                 *     - HOLD (On Hold)
                 *     - RELS (Released)
                 *
                 *     It is possible to select multiple values by comma (,) separating them. For multiple values the OR-operator is used. For example <i>shipmentEventTypeCode=RECE,DRFT</i>  Matches <b>both</b> Received (RECE) and Drafted (DRFT) shipment events.
                 *
                 *     Default is all shipmentEventTypeCodes.
                 *
                 *     This filter is only relevant when filtering on ShipmentEvents
                 * @example [
                 *       "RECE",
                 *       "DRFT"
                 *     ]
                 */
                shipmentEventTypeCode?: components["schemas"]["Dcsa.shipmentEventTypeCode"][];
                /**
                 * @description The documentTypeCode to filter by. Possible values are
                 *     - CBR (Carrier Booking Request Reference)
                 *     - BKG (Booking)
                 *     - SHI (Shipping Instruction)
                 *     - SRM (Shipment Release Message)
                 *     - TRD (Transport Document)
                 *     - ARN (Arrival Notice)
                 *     - VGM (Verified Gross Mass)
                 *     - CAS (Cargo Survey)
                 *     - CUS (Customs Inspection)
                 *     - DGD (Dangerous Goods Declaration)
                 *     - OOG (Out of Gauge)
                 *
                 *     It is possible to select multiple values by comma (,) separating them. For multiple values the OR-operator is used. For example <i>documentTypeCode=SHI,TRD</i> Matches <b>both</b> ShippingInstruction (SHI) and TransportDocument (TRD) shipment events.
                 *
                 *     Default is all documentTypeCodes.
                 *
                 *     This filter is only relevant when filtering on ShipmentEvents
                 * @example [
                 *       "SHI",
                 *       "TRD"
                 *     ]
                 */
                documentTypeCode?: components["schemas"]["Dcsa.documentTypeCode"][];
                /**
                 * @description A set of unique characters provided by carrier to identify a booking.
                 *
                 *     Specifying this filter will only return events related to this particular carrierBookingReference.
                 *
                 *     Events linked to the shipment with this carrier booking reference.
                 */
                carrierBookingReference?: components["schemas"]["Dcsa.carrierBookingReference"];
                /**
                 * @deprecated
                 * @description Deprecated - use carrierBookingReference instead.
                 *
                 *     Accepted as carrierBookingReference.
                 */
                bookingReference?: string;
                /**
                 * @deprecated
                 * @description A unique id to identify a transport document.
                 *
                 *     Deprecated - use transportDocumentReference instead transportDocumentReference
                 *
                 *     Not supported: 400.
                 */
                transportDocumentID?: string;
                /**
                 * @description A unique number reference allocated by the shipping line to the transport document and the main number used for the tracking of the status of the shipment.
                 *
                 *     Specifying this filter will only return events related to this particular transportDocumentReference
                 *
                 *     Events linked to the shipment with this bill of lading number.
                 */
                transportDocumentReference?: components["schemas"]["Dcsa.transportDocumentReference"];
                /**
                 * @description Identifier for type of Transport event to filter by
                 *     - ARRI (Arrived)
                 *     - DEPA (Departed)
                 *
                 *     It is possible to select multiple values by comma (,) separating them. For multiple values the OR-operator is used. For example <i>transportEventTypeCode=ARRI,DEPA</i> matches <b>both</b> Arrived (ARRI) and Departed (DEPA) transport events.
                 *
                 *     Default is all transportEventTypeCodes.
                 *
                 *     This filter is only relevant when filtering on TransportEvents
                 * @example [
                 *       "ARRI",
                 *       "DEPA"
                 *     ]
                 */
                transportEventTypeCode?: components["schemas"]["Dcsa.transportEventTypeCode"][];
                /**
                 * @deprecated
                 * @description ID uniquely identifying a schedule, to filter events by.
                 *
                 *     This filter was added by mistake and is thus deprecated.
                 *
                 *     Not supported: 400.
                 */
                scheduleID?: components["schemas"]["Dcsa.scheduleID"];
                /**
                 * @description ID uniquely identifying a transport call, to filter events by.
                 *
                 *     Specifying this filter will only return events related to this particular transportCallID
                 */
                transportCallID?: components["schemas"]["Dcsa.transportCallID"];
                /**
                 * @description The identifier of vessel for which schedule details are published. Depending on schedule type, this may not be available yet.
                 *
                 *     Specifying this filter will only return events related to this particular vesselIMONumber.
                 */
                vesselIMONumber?: components["schemas"]["Dcsa.vesselIMONumber"];
                /**
                 * @deprecated
                 * @description Filter on the vessel operator-specific identifier of the Voyage.
                 *
                 *     Specifying this filter will only return events related to this particular carrierVoyageNumber.
                 *
                 *     <b>Deprecated:</b> Use exportVoyageNumber instead
                 *
                 *     Accepted as exportVoyageNumber.
                 */
                carrierVoyageNumber?: components["schemas"]["Dcsa.carrierVoyageNumber"];
                /**
                 * @description Filter on the vessel operator-specific identifier of the export Voyage.
                 *
                 *     Specifying this filter will only return events related to this particular exportVoyageNumber.
                 */
                exportVoyageNumber?: components["schemas"]["Dcsa.exportVoyageNumber"];
                /**
                 * @description Filter on the carrier specific identifier of the service.
                 *
                 *     Specifying this filter will only return events related to this particular carrierServiceCode.
                 */
                carrierServiceCode?: components["schemas"]["Dcsa.carrierServiceCode"];
                /**
                 * @description The UN Location code specifying where the place is located.
                 *
                 *     Specifying this filter will only return events related to this particular UN Location code.
                 *
                 *     Matches the transport call's UN/LOCODE, or an equipment event's eventLocation.
                 */
                UNLocationCode?: components["schemas"]["Dcsa.UNLocationCode"];
                /**
                 * @description Unique identifier for equipmentEventTypeCode.
                 *     - LOAD (Loaded)
                 *     - DISC (Discharged)
                 *     - GTIN (Gated in)
                 *     - GTOT (Gated out)
                 *     - STUF (Stuffed)
                 *     - STRP (Stripped)
                 *     - PICK (Pick-up)
                 *     - DROP (Drop-off)
                 *     - INSP (Inspected)
                 *     - RSEA (Resealed)
                 *     - RMVD (Removed)
                 *
                 *     It is possible to select multiple values by comma (,) separating them. For multiple values the OR-operator is used. For example <i>equipmentEventTypeCode=GTIN,GTOT</i> matches <b>both</b> Gated in (GTIN) and Gated out (GTOT) equipment events.
                 *
                 *     Default is all equipmentEventTypeCodes.
                 *
                 *     This filter is only relevant when filtering on EquipmentEvents
                 * @example [
                 *       "GTIN",
                 *       "GTOT"
                 *     ]
                 */
                equipmentEventTypeCode?: components["schemas"]["Dcsa.equipmentEventTypeCode"][];
                /**
                 * @description Will filter by the unique identifier for the equipment, which should follow the BIC ISO Container Identification Number where possible.
                 *
                 *     Specifying this filter will only return events related to this particular equipmentReference
                 */
                equipmentReference?: components["schemas"]["Dcsa.equipmentReference"];
                /**
                 * @description Limit the result based on the creating date of the event. It is possible to use operators on this query parameter. This is done by adding a colon followed by an operator at the end of the queryParameterName (before the =)
                 *
                 *     <i>eventCreatedDateTime<b>&#58;gte</b>=2021-04-01T14&#58;12&#58;56+01&#58;00</i>
                 *
                 *     would result in all events created &#8805; 2021-04-01T14&#58;12&#58;56+01&#58;00
                 *
                 *     The following operators are supported
                 *     - &#58;gte (&#8805; Greater than or equal)
                 *     - &#58;gt (&#62; Greater than)
                 *     - &#58;lte (&#8804; Less than or equal)
                 *     - &#58;lt (&#60; Less than)
                 *     - &#58;eq (&#61; Equal to)
                 *
                 *     If no operator is provided, a <b>strictly equal</b> is used (this is equivalent to <b>&#58;eq</b> operator).
                 * @example 2021-04-01T14:12:56+01:00
                 */
                eventCreatedDateTime?: components["schemas"]["Dcsa.eventCreatedDateTime"];
                /**
                 * @description Maximum number of items to return.
                 *
                 *     At most 1000.
                 * @example 100
                 */
                limit?: number;
                /**
                 * @description A server generated value to specify a specific point in a collection result, used for pagination.
                 *
                 *     A page header value (Current-Page, Next-Page, …): it carries the query it was made for, so send it alone (or with that same query).
                 * @example fE9mZnNldHw9MTAmbGltaXQ9MTA=
                 */
                cursor?: string;
                /**
                 * @description A comma-separated list of field names to define the sort order. Field names should be suffixed by a (:) followed by either the keyword ASC (for ascending order) or DESC (for descening order) to specify direction. <b>:ASC</b> may be omitted, in which case ascending order will be used.
                 *
                 *     Fields: eventCreatedDateTime, eventDateTime (ties in the order events were stored). Default eventCreatedDateTime:ASC.
                 * @example carrierBookingReference:DESC
                 */
                sort?: string;
                /** @description Events created ≥ this time. */
                "eventCreatedDateTime:gte"?: components["schemas"]["Dcsa.eventCreatedDateTime"];
                /** @description Events created > this time. */
                "eventCreatedDateTime:gt"?: components["schemas"]["Dcsa.eventCreatedDateTime"];
                /** @description Events created ≤ this time. */
                "eventCreatedDateTime:lte"?: components["schemas"]["Dcsa.eventCreatedDateTime"];
                /** @description Events created < this time. */
                "eventCreatedDateTime:lt"?: components["schemas"]["Dcsa.eventCreatedDateTime"];
                /** @description Events created = this time. */
                "eventCreatedDateTime:eq"?: components["schemas"]["Dcsa.eventCreatedDateTime"];
                /** @description Not in the DCSA standard: only events this carrier (SCAC) published. */
                carrierCode?: string;
            };
            header?: {
                /** @description May be sent; when sent, the major version of the URI: 2 (else 400). */
                "API-Version"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events, and the cursors of the pages around it. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Current-Page": components["headers"]["Dcsa.Current-Page"];
                    "Next-Page": components["headers"]["Dcsa.Next-Page"];
                    "Prev-Page": components["headers"]["Dcsa.Prev-Page"];
                    "First-Page": components["headers"]["Dcsa.First-Page"];
                    "Last-Page": components["headers"]["Dcsa.Last-Page"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Dcsa.transportEvent"] | components["schemas"]["Dcsa.shipmentEvent"] | components["schemas"]["Dcsa.equipmentEvent"])[];
                };
            };
            /** @description reason `invalidQuery` or `invalidParameter`: an unknown, repeated or malformed parameter (the message names it and what it allows), or a cursor this service did not hand out. */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `unauthorized`: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `forbidden`: a token without the track-and-trace.read scope. */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `invalidQuery`: a method other than GET. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    Allow: components["headers"]["AllowMethods"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `rateLimited`: the client's quota is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `internalError`: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `serviceUnavailable`: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
        };
    };
    dcsaEventSubscriptions: {
        parameters: {
            query?: {
                /** @description Subscriptions per page, 1 to 1000; default 100. */
                limit?: number;
                /** @description A page header value; send it alone. */
                cursor?: string;
                /** @description subscriptionID or callbackUrl, each optionally :ASC or :DESC. Default: oldest first. */
                sort?: string;
            };
            header?: {
                /** @description May be sent; when sent, the major version of the URI: 2 (else 400). */
                "API-Version"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of your subscriptions. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Current-Page": components["headers"]["Dcsa.Current-Page"];
                    "Next-Page": components["headers"]["Dcsa.Next-Page"];
                    "Prev-Page": components["headers"]["Dcsa.Prev-Page"];
                    "First-Page": components["headers"]["Dcsa.First-Page"];
                    "Last-Page": components["headers"]["Dcsa.Last-Page"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.subscription"][];
                };
            };
            /** @description reason `invalidQuery` or `invalidParameter`: an unknown or malformed parameter. */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `unauthorized`: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `forbidden`: a token without the track-and-trace.subscribe scope. */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `invalidQuery`: a method other than GET, POST. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    Allow: components["headers"]["AllowMethods"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `rateLimited`: the client's quota is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `internalError`: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `serviceUnavailable`: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
        };
    };
    dcsaCreateEventSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description May be sent; when sent, the major version of the URI: 2 (else 400). */
                "API-Version"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Dcsa.subscriptionBodyWithSecret"];
            };
        };
        responses: {
            /** @description Subscribed. */
            201: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.subscription"];
                };
            };
            /** @description reason `invalidParameter`: a malformed or unknown field (named), a callback URL the service may not call, a secret that is not Base64 of at least 32 bytes, or the per-client cap reached. */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `unauthorized`: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `forbidden`: a token without the track-and-trace.subscribe scope. */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `invalidQuery`: a method other than GET, POST. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    Allow: components["headers"]["AllowMethods"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `invalidParameter`: a body over 16 KiB. */
            413: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `invalidParameter`: a body that is not application/json. */
            415: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `rateLimited`: the client's quota is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `internalError`: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `serviceUnavailable`: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
        };
    };
    dcsaEventSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description May be sent; when sent, the major version of the URI: 2 (else 400). */
                "API-Version"?: string;
            };
            path: {
                /** @description The subscription (yours: another client's is 404). */
                subscriptionID: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.subscription"];
                };
            };
            /** @description reason `invalidParameter` or `invalidQuery`: a subscriptionID that is no UUID, or an API-Version other than 2. */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `unauthorized`: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `forbidden`: a token without the track-and-trace.subscribe scope. */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `notFound`: no such subscription of yours. */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `invalidQuery`: a method other than GET, PUT, DELETE. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    Allow: components["headers"]["AllowMethods"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `rateLimited`: the client's quota is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `internalError`: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `serviceUnavailable`: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
        };
    };
    dcsaUpdateEventSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description May be sent; when sent, the major version of the URI: 2 (else 400). */
                "API-Version"?: string;
            };
            path: {
                /** @description The subscription (yours: another client's is 404). */
                subscriptionID: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Dcsa.subscription"];
            };
        };
        responses: {
            /** @description Updated. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.subscription"];
                };
            };
            /** @description reason `invalidParameter`: a malformed or unknown field, a secret (change it with PUT …/secret), or a subscriptionID that differs from the path. */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `unauthorized`: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `forbidden`: a token without the track-and-trace.subscribe scope. */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `notFound`: no such subscription of yours. */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `invalidQuery`: a method other than GET, PUT, DELETE. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    Allow: components["headers"]["AllowMethods"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `invalidParameter`: a body over 16 KiB. */
            413: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `invalidParameter`: a body that is not application/json. */
            415: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `rateLimited`: the client's quota is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `internalError`: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `serviceUnavailable`: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
        };
    };
    dcsaDeleteEventSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description May be sent; when sent, the major version of the URI: 2 (else 400). */
                "API-Version"?: string;
            };
            path: {
                /** @description The subscription (yours: another client's is 404). */
                subscriptionID: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Stopped; its pending notifications are given up. */
            204: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description reason `invalidParameter` or `invalidQuery`: a subscriptionID that is no UUID, or an API-Version other than 2. */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `unauthorized`: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `forbidden`: a token without the track-and-trace.subscribe scope. */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `notFound`: no such subscription of yours. */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `invalidQuery`: a method other than GET, PUT, DELETE. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    Allow: components["headers"]["AllowMethods"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `rateLimited`: the client's quota is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `internalError`: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `serviceUnavailable`: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
        };
    };
    dcsaEventSubscriptionDeliveries: {
        parameters: {
            query?: {
                /** @description Only deliveries in this state. */
                status?: "PENDING" | "DELIVERED" | "FAILED";
                /** @description At most this many; default 100. */
                limit?: number;
            };
            header?: {
                /** @description May be sent; when sent, the major version of the URI: 2 (else 400). */
                "API-Version"?: string;
            };
            path: {
                /** @description The subscription (yours: another client's is 404). */
                subscriptionID: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deliveries, newest first. */
            200: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventSubscriptionDelivery"][];
                };
            };
            /** @description reason `invalidParameter` or `invalidQuery`: a subscriptionID that is no UUID, an unknown parameter, a malformed status or limit, or an API-Version other than 2. */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `unauthorized`: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `forbidden`: a token without the track-and-trace.subscribe scope. */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `notFound`: no such subscription of yours. */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `invalidQuery`: a method other than GET. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    Allow: components["headers"]["AllowMethods"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `rateLimited`: the client's quota is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `internalError`: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `serviceUnavailable`: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
        };
    };
    dcsaUpdateEventSubscriptionSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description May be sent; when sent, the major version of the URI: 2 (else 400). */
                "API-Version"?: string;
            };
            path: {
                /** @description The subscription (yours: another client's is 404). */
                subscriptionID: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Dcsa.subscriptionID_secret_body"];
            };
        };
        responses: {
            /** @description The secret is replaced. */
            204: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description reason `invalidParameter`: a secret that is not Base64 of at least 32 bytes, or another field. */
            400: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `unauthorized`: a missing, malformed, expired or foreign token, or a token of a disabled client. */
            401: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `forbidden`: a token without the track-and-trace.subscribe scope. */
            403: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `notFound`: no such subscription of yours. */
            404: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `invalidQuery`: a method other than PUT. */
            405: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    Allow: components["headers"]["AllowMethods"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `invalidParameter`: a body over 16 KiB. */
            413: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `invalidParameter`: a body that is not application/json. */
            415: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `rateLimited`: the client's quota is used up; retry after Retry-After seconds. */
            429: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `internalError`: an unexpected failure (details only in the logs, under providerCorrelationReference). */
            500: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
            /** @description reason `serviceUnavailable`: the database is down or too slow; retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Correlation-ID": components["headers"]["CorrelationId"];
                    "X-Request-ID": components["headers"]["RequestId"];
                    "API-Version": components["headers"]["Dcsa.API-Version"];
                    "Cache-Control": components["headers"]["NoStore"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dcsa.error"];
                };
            };
        };
    };
}
