import { type TSchema, Type } from 'typebox';

/** The error body of docs/api.md 0.2; every error status of every route answers with it. */
export const ErrorBody = Type.Object(
  {
    success: Type.Literal(false),
    code: Type.String({ description: 'Machine-readable, snake_case (docs/api.md 0.2)' }),
    message: Type.String({ description: 'Localized, human-readable' }),
    errors: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
        description: 'One entry per offending parameter or body field (400 only)',
      }),
    ),
    request_id: Type.String({ description: 'Equals the X-Request-Id response header' }),
  },
  { $id: 'ErrorBody', title: 'Error' },
);

/** `{ success, data, message? }` around a payload. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({
    success: Type.Boolean(),
    data,
    message: Type.Optional(Type.String()),
  });
}

/** Response schemas for the error statuses a route can answer, all of them the error body. */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, typeof ErrorBodyRef> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBodyRef])) as Record<S, typeof ErrorBodyRef>;
}

const ErrorBodyRef = Type.Ref('ErrorBody');
