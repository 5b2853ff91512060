import type { DetailedError } from '../errors.js';
import { builder } from '../builder.js';

/**
 * The spec's Error schema: the DCSA error response (ERROR_DOMAIN 4.0). REST
 * returns it as the body of every lookup error; it is declared here so that
 * the one schema documents every shape the service returns.
 */
export interface ErrorBody {
  httpMethod: string;
  requestUri: string;
  statusCode: number;
  statusCodeText: string;
  statusCodeMessage: string;
  providerCorrelationReference: string;
  errorDateTime: string;
  errors: DetailedError[];
}

export const DetailedErrorType = builder.objectRef<DetailedError>('DetailedError').implement({
  fields: (t) => ({
    errorCode: t.exposeInt('errorCode', { description: '7000-7999 technical, 8000-8999 functional.' }),
    property: t.exposeString('property', { nullable: true }),
    value: t.exposeString('value', { nullable: true }),
    jsonPath: t.exposeString('jsonPath', { nullable: true }),
    errorCodeText: t.exposeString('errorCodeText'),
    errorCodeMessage: t.exposeString('errorCodeMessage'),
  }),
});

export const ErrorType = builder.objectRef<ErrorBody>('Error').implement({
  description: 'DCSA error response, the body of every error of GET /v2/shipments.',
  fields: (t) => ({
    httpMethod: t.exposeString('httpMethod'),
    requestUri: t.exposeString('requestUri'),
    statusCode: t.exposeInt('statusCode'),
    statusCodeText: t.exposeString('statusCodeText'),
    statusCodeMessage: t.exposeString('statusCodeMessage'),
    providerCorrelationReference: t.exposeString('providerCorrelationReference'),
    errorDateTime: t.exposeString('errorDateTime'),
    errors: t.expose('errors', { type: [DetailedErrorType] }),
  }),
});
