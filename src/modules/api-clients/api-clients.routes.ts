import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { bodyDefaultsToEmpty, callerOf } from '../../http/route-helpers.js';
import { translate } from '../../i18n/index.js';
import {
  ApiClientDeleted,
  ApiClientIdParams,
  ApiClientList,
  CreateApiClientBody,
  CreatedApiClient,
  RotateClientSecretBody,
  RotatedClientSecret,
  UpdateApiClientBody,
} from './api-clients.schemas.js';
import type { ApiClientsService } from './api-clients.service.js';

const administrator = { auth: ['administrator'] } as const;
const security = [{ bearer: [] }];
const tags = ['api-clients'];
const EmptyBody = Type.Object({}, { additionalProperties: false });
const ACCESS = 'Administrators only, signed in as themselves (others, and every machine client → 403); an unknown id → 404.';

/** Administrators' management of machine clients (docs/api.md 17; docs/machine-clients.md). */
export async function apiClientRoutes(app: FastifyInstance, { apiClients }: { apiClients: ApiClientsService }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/api-clients',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'Make a machine client (administrator)',
        description:
          'A client acts with the rights of the administrator who makes it, on the routes its `scopes` grant (each ' +
          'operation of this document names its scope). Its `secret` is shown only in this answer: send it as a bearer ' +
          'token, or as `client_secret` to POST /oauth/token for short-lived tokens. `allowed_addresses` (null: any) ' +
          'limits where it may call from; `rate_limit_per_minute` (default: the site’s per-address limit) is its own ' +
          'budget, apart from any address’s. At most 100 clients (→ 409). Unknown fields → 400.',
        security,
        body: CreateApiClientBody,
        response: { 201: Envelope(CreatedApiClient), ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({
        success: true,
        data: await apiClients.create(callerOf(request), request.body),
        message: translate(request.lang, 'api_client_created'),
      }),
  );

  api.get(
    '/api-clients',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'The machine clients (administrator)',
        description: 'Every client, newest first, revoked ones included, without secrets. No paging: there are 100 at most.',
        security,
        querystring: Type.Object({}, { additionalProperties: false }),
        response: { 200: Envelope(ApiClientList), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async () => ({ success: true, data: await apiClients.list() }),
  );

  api.get(
    '/api-clients/:id',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'One machine client (administrator)',
        description: ACCESS,
        security,
        params: ApiClientIdParams,
        response: { 200: Envelope(Type.Ref('ApiClient')), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({ success: true, data: await apiClients.get(request.params.id) }),
  );

  api.patch(
    '/api-clients/:id',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'Change a machine client (administrator)',
        description:
          'Any of `name`, `description`, `scopes`, `allowed_addresses` (null: any), `rate_limit_per_minute`; at least one. ' +
          'Applies at once to its secret and its tokens, in every process. A revoked client → 409. ' +
          ACCESS,
        security,
        params: ApiClientIdParams,
        body: UpdateApiClientBody,
        response: { 200: Envelope(Type.Ref('ApiClient')), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) },
      },
    },
    async (request) => ({ success: true, data: await apiClients.update(request.params.id, request.body) }),
  );

  api.post(
    '/api-clients/:id/rotate-secret',
    {
      config: administrator,
      preValidation: bodyDefaultsToEmpty,
      schema: {
        tags,
        summary: 'Give a machine client a new secret (administrator)',
        description:
          'The new `secret` is shown only in this answer; the current one keeps working until `previous_secret_expires_at` ' +
          '(`overlap_seconds`, default a day, at most a week; 0 ends it now). Tokens already issued work until they ' +
          'expire. A revoked client → 409. ' +
          ACCESS,
        security,
        params: ApiClientIdParams,
        body: RotateClientSecretBody,
        response: { 200: Envelope(RotatedClientSecret), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await apiClients.rotateSecret(request.params.id, request.body.overlap_seconds),
      message: translate(request.lang, 'api_client_secret_rotated'),
    }),
  );

  api.post(
    '/api-clients/:id/revoke',
    {
      config: administrator,
      preValidation: bodyDefaultsToEmpty,
      schema: {
        tags,
        summary: 'Revoke a machine client (administrator)',
        description:
          'Its secrets and tokens stop working at once, in every process; it stays listed with `revoked_at`. Revoking ' +
          'a revoked client changes nothing. ' +
          ACCESS,
        security,
        params: ApiClientIdParams,
        body: EmptyBody,
        response: { 200: Envelope(Type.Ref('ApiClient')), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await apiClients.revoke(request.params.id),
      message: translate(request.lang, 'api_client_revoked'),
    }),
  );

  api.delete(
    '/api-clients/:id',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'Delete a machine client (administrator)',
        description: `Deletes it with its secrets and tokens (they stop working at once); webhook endpoints it made stay. ${ACCESS}`,
        security,
        params: ApiClientIdParams,
        response: { 200: Envelope(ApiClientDeleted), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await apiClients.delete(request.params.id),
      message: translate(request.lang, 'api_client_deleted'),
    }),
  );
}
