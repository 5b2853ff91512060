/**
 * The fixed GraphQL document behind POST /oauth/token: the grant is the
 * issueToken mutation, run through Yoga's envelop like any GraphQL request.
 */
export const ISSUE_TOKEN = /* GraphQL */ `
  mutation RestIssueToken($grant_type: String!, $client_id: String!, $client_secret: String!, $scope: String) {
    issueToken(grant_type: $grant_type, client_id: $client_id, client_secret: $client_secret, scope: $scope) {
      access_token
      token_type
      expires_in
      scope
    }
  }
`;
