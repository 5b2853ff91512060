import type { TokenResponse } from '../../auth/principal.js';
import { builder } from '../builder.js';
import { policy } from '../../executor/field-policy.js';

export const TokenResponseType = builder.objectRef<TokenResponse>('TokenResponse').implement({
  description: 'An access token (OAuth 2.0 client credentials grant, RFC 6749 section 5.1).',
  fields: (t) => ({
    access_token: t.exposeString('access_token', {
      description: 'Bearer token (JWT, RFC 9068): send it as `Authorization: Bearer <access_token>`.',
    }),
    token_type: t.exposeString('token_type', { description: 'Always Bearer.' }),
    expires_in: t.exposeInt('expires_in', {
      description: 'Seconds the token is valid for: 3600. Reuse it until shortly before it expires.',
    }),
    scope: t.exposeString('scope', { description: 'The granted scope: track-and-trace.read.' }),
  }),
});

builder.mutationType({ description: 'The token grant (the service is otherwise read-only).' });

builder.mutationField('issueToken', (t) =>
  t.field({
    ...policy({ access: 'public' }),
    type: TokenResponseType,
    description:
      'OAuth 2.0 client credentials grant (RFC 6749 section 4.4); POST /oauth/token is a thin handler over this field. ' +
      'Errors carry extensions.code OAUTH_ERROR (RATE_LIMITED for too many failed authentications or tokens: each ' +
      "issued token counts against the client's quota) with the RFC 6749 error and error_description.",
    args: {
      grant_type: t.arg.string({ required: true, description: 'Must be client_credentials.' }),
      client_id: t.arg.string({ required: true, description: 'The client identifier, issued per environment.' }),
      client_secret: t.arg.string({ required: true, description: 'The client secret issued with client_id.' }),
      scope: t.arg.string({ required: false, description: 'track-and-trace.read, the default and only scope.' }),
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
