import { Type } from 'typebox';
import { RegisterBody, ResetConfirmBody } from '../../../modules/auth/index.js';
import { HONEYPOT_FIELD } from '../../forms.js';

/**
 * The account forms' bodies and queries. Bodies arrive as text (application/x-www-form-urlencoded) and are taken
 * as they are, with no conversion; every field is listed. Sign-up and the reset take the API's own rules
 * (auth.schemas.ts), so that the site never accepts what the API refuses.
 */
const Csrf = Type.Optional(Type.String({ maxLength: 200 }));
const Honeypot = Type.Optional(Type.Unknown());
/** Checked by safeNextPath, whatever it is. */
const Next = Type.Optional(Type.Unknown());
/** The page of a list a form was posted from, to return to it. */
const PageField = Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,5}$' }));

export const NextQuery = Type.Object({ next: Next });

export const SignInBody = Type.Object(
  {
    login: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 128 }),
    next: Next,
    csrf: Csrf,
    [HONEYPOT_FIELD]: Honeypot,
  },
  { additionalProperties: false },
);

const { username, email, password, first_name, last_name } = RegisterBody.properties;
export const SignUpBody = Type.Object(
  { username, email, password, first_name, last_name, next: Next, csrf: Csrf, [HONEYPOT_FIELD]: Honeypot },
  { additionalProperties: false },
);

export const ForgotQuery = Type.Object({ sent: Type.Optional(Type.Unknown()) });

export const ForgotBody = Type.Object(
  { email: Type.String({ format: 'email', maxLength: 254 }), csrf: Csrf, [HONEYPOT_FIELD]: Honeypot },
  { additionalProperties: false },
);

export const ResetQuery = Type.Object({ token: Type.Optional(Type.Unknown()), done: Type.Optional(Type.Unknown()) });

export const ResetBody = Type.Object(
  {
    token: ResetConfirmBody.properties.token,
    password: ResetConfirmBody.properties.password,
    password_confirm: Type.String({ maxLength: 128 }),
    csrf: Csrf,
  },
  { additionalProperties: false },
);

export const SignOutBody = Type.Object({ csrf: Csrf }, { additionalProperties: false });

export const ListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  removed: Type.Optional(Type.Unknown()),
  saved: Type.Optional(Type.Unknown()),
  deleted: Type.Optional(Type.Unknown()),
});

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

export const RemoveFavoriteBody = Type.Object({ csrf: Csrf, page: PageField }, { additionalProperties: false });

export const SavedAlertsBody = Type.Object(
  { alerts: Type.Enum(['off', 'instant', 'daily', 'weekly']), csrf: Csrf, page: PageField },
  { additionalProperties: false },
);

export const DeleteSavedBody = Type.Object({ csrf: Csrf, page: PageField }, { additionalProperties: false });
