import { builder } from '../builder.js';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

export const TokenResponseType = builder.objectRef<TokenResponse>('TokenResponse').implement({
  fields: (t) => ({
    access_token: t.exposeString('access_token', { description: 'Bearer token (JWT, RFC 9068).' }),
    token_type: t.exposeString('token_type', { description: 'Bearer' }),
    expires_in: t.exposeInt('expires_in', { description: 'Seconds; 3600.' }),
    scope: t.exposeString('scope', { description: 'track-and-trace.read' }),
  }),
});

builder.mutationType({});

builder.mutationField('issueToken', (t) =>
  t.field({
    type: TokenResponseType,
    description:
      'OAuth 2.0 client credentials grant (RFC 6749 section 4.4); POST /oauth/token is a thin handler over this field. ' +
      'Errors carry extensions.code OAUTH_ERROR with the RFC 6749 error and error_description.',
    args: {
      grant_type: t.arg.string({ required: true, description: 'client_credentials' }),
      client_id: t.arg.string({ required: true }),
      client_secret: t.arg.string({ required: true }),
      scope: t.arg.string({ required: false, description: 'Defaults to track-and-trace.read.' }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.issueToken(
        {
          grantType: args.grant_type,
          clientId: args.client_id,
          clientSecret: args.client_secret,
          scope: args.scope ?? undefined,
        },
        ctx.grant,
      ),
  }),
);
