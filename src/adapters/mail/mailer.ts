import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import { lazyModule } from '../../lib/lazy-module.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Sent as the `Message-ID`-independent `X-Idempotency-Key` header, so receivers can drop repeats. */
  idempotencyKey: string;
  /** Extra headers, e.g. `List-Unsubscribe` (values on one line; nodemailer encodes and folds them). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** nodemailer, loaded with the first mail rather than at start. */
const nodemailerLibrary = lazyModule(async () => (await import('nodemailer')).default);

/** SMTP through nodemailer (`SMTP_URL`, e.g. `smtps://user:pass@mail.example.com:465`). */
export class SmtpMailer implements Mailer {
  private transport: Transporter | undefined;
  private readonly openTransport: () => Promise<Transporter>;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.openTransport = lazyModule(async () => (this.transport = (await nodemailerLibrary()).createTransport(smtpUrl)));
  }

  async send(message: MailMessage): Promise<void> {
    const transport = await this.openTransport();
    await transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
      ...(message.replyTo ? { replyTo: message.replyTo } : {}),
      headers: { ...message.headers, 'X-Idempotency-Key': message.idempotencyKey },
    });
  }

  /** Closes the transport's pooled connections, if a mail ever opened it. */
  close(): void {
    this.transport?.close();
  }
}

/**
 * Without SMTP_URL (development), mail is written to the log instead of being sent (docs/api.md 8). That
 * includes links such as password resets: configure SMTP_URL for any real deployment.
 */
export class LogMailer implements Mailer {
  constructor(private readonly log: FastifyBaseLogger) {}

  async send(message: MailMessage): Promise<void> {
    this.log.info({ mail: { to: message.to, subject: message.subject, text: message.text } }, 'mail (no SMTP_URL configured)');
  }

  close(): void {}
}
