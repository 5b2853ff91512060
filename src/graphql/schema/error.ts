import type { DetailedError } from '../../errors/errors.js';
import type { ErrorBody } from '../../errors/error-body.js';
import { builder } from '../builder.js';

export const DetailedErrorType = builder.objectRef<DetailedError>('DetailedError').implement({
  description: 'One cause of an error (DCSA DetailedError); GraphQL errors carry them in extensions.details.',
  fields: (t) => ({
    errorCode: t.exposeInt('errorCode', {
      description: 'DCSA error code: 7000-7999 technical, 8000-8999 functional (e.g. 8004 invalidParameter).',
    }),
    property: t.exposeString('property', { nullable: true, description: 'The name of the parameter causing the error.' }),
    value: t.exposeString('value', {
      nullable: true,
      description: 'The value of the parameter causing the error, as it was sent (at most 500 characters).',
    }),
    jsonPath: t.exposeString('jsonPath', { nullable: true, description: 'A JSONPath to the parameter, e.g. $.carrierCode.' }),
    errorCodeText: t.exposeString('errorCodeText', { description: 'Short name of errorCode, e.g. invalidParameter.' }),
    errorCodeMessage: t.exposeString('errorCodeMessage', { description: 'What is wrong and how to fix it.' }),
  }),
});

export const ErrorType = builder.objectRef<ErrorBody>('Error').implement({
  description: 'DCSA error response, the body of every error of GET /v2/shipments.',
  fields: (t) => ({
    httpMethod: t.exposeString('httpMethod', { description: 'The HTTP method of the request, e.g. GET.' }),
    requestUri: t.exposeString('requestUri', { description: 'The path and query that were requested.' }),
    statusCode: t.exposeInt('statusCode', { description: 'The HTTP status code returned.' }),
    statusCodeText: t.exposeString('statusCodeText', { description: 'The HTTP status, e.g. Bad Request.' }),
    statusCodeMessage: t.exposeString('statusCodeMessage', { description: 'What the status means for this request.' }),
    providerCorrelationReference: t.exposeString('providerCorrelationReference', {
      description: "The request's id, also in the X-Correlation-ID header and in the service's logs: quote it.",
    }),
    errorDateTime: t.expose('errorDateTime', { type: 'DateTime', description: 'When the error occurred.' }),
    errors: t.expose('errors', { type: [DetailedErrorType], description: 'The causes of the error; at least one.' }),
  }),
});
