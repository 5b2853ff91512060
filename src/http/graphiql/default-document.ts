/**
 * The document GraphiQL opens with (when the browser has none stored).
 * Its comments must stay true: `withDemoToken` says whether the page came
 * with the sandbox demo client's token in the Headers tab.
 */
export function graphiqlDefaultDocument({ withDemoToken }: { withDemoToken: boolean }): string {
  // Short lines: the editor shows about 55 characters at a common window width.
  const intro = withDemoToken
    ? `# Track & Trace GraphQL (sandbox)
#
# The Headers tab below holds a token of the sandbox
# demo client (account demo-account), minted when
# this page loaded and valid for one hour: reload the
# page for a new one.
#
# Press the run button and pick ShipmentEta, then
# ShipmentSnapshot. docs/lookups-and-polling.md lists the sandbox's
# shipments.`
    : `# Track & Trace GraphQL
#
# 1. Run IssueToken (at the end) with your client's
#    credentials.
# 2. Put {"Authorization": "Bearer <access_token>"}
#    in the Headers tab below.
# 3. Run ShipmentEta, then ShipmentSnapshot, with the
#    reference of one of your shipments (MAEU262150002
#    is one of the sandbox data).`;
  const issueToken = withDemoToken
    ? `# Another client: exchange its credentials for a
# token and put it in the Headers tab.`
    : `# Exchange your client's credentials for a token.`;
  return `${intro}

query ShipmentEta {
  shipment(billOfLadingNumber: "MAEU262150002") {
    shipmentTracking {
      carrierBookingReference
      etd
      eta
    }
  }
}

query ShipmentSnapshot {
  shipment(billOfLadingNumber: "MAEU262150002") {
    transmissionHeader {
      transmissionID
      transmissionDateTime
    }
    shipmentTracking {
      eta
      containers {
        containerNumber
        latestEvent {
          equipmentEventTypeCode
          eventClassifierCode
          eventDateTime
        }
      }
      exceptions {
        exceptionType
        severity
        status
        title
        recommendedAction
      }
    }
  }
}

${issueToken}
mutation IssueToken {
  issueToken(
    grant_type: "client_credentials"
    client_id: "CLIENT_ID"
    client_secret: "CLIENT_SECRET"
  ) {
    access_token
    expires_in
  }
}
`;
}
