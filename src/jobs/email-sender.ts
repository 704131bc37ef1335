import type { Mailer } from '../adapters/mail/mailer.js';
import type { OutboxRow } from '../db/schema/index.js';
import type { EmailPayload, ChannelSender } from '../db/outbox.js';

/**
 * Sends `email` outbox messages. Once sent, only the recipient and subject stay in the outbox row: bodies
 * can carry secrets (reset links) that have no reason to outlive their delivery.
 */
export function emailSender(mailer: Mailer): ChannelSender {
  return async (payload: unknown, message: OutboxRow) => {
    const mail = payload as EmailPayload;
    await mailer.send({ ...mail, idempotencyKey: message.idempotency_key });
    return { to: mail.to, subject: mail.subject };
  };
}
