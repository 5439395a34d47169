import { randomUUID } from 'node:crypto';
import type { Queryable } from '@kosh/event-store';
import nodemailer from 'nodemailer';

export type Mail = Readonly<{
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (a reminder's List-Unsubscribe and List-Unsubscribe-Post, RFC 8058). */
  headers?: Readonly<Record<string, string>>;
}>;

export type OutboxMessage = Readonly<{
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  createdAt: string;
}>;

/** Sends one mail; resolves once the relay (or the outbox) has accepted it. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: Mail): Promise<void>;
  close(): Promise<void>;
}

export const mailMigrations = { scope: 'mail', dir: new URL('./migrations', import.meta.url).pathname };

/** nodemailer over SMTP_URL (MailHog, maildev or a real relay). */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        ...(mail.headers && { headers: { ...mail.headers } }),
      });
    },
    async close() {
      transport.close();
    },
  };
}

/** Embedded mode: every message is kept in `mail_outbox` and listed at /dev/mailbox. */
export function createOutboxMailer(db: Queryable): Mailer {
  return {
    kind: 'outbox',
    async send(mail) {
      await db.query(
        'INSERT INTO mail_outbox (id, to_address, subject, text_body, html_body) VALUES ($1, $2, $3, $4, $5)',
        [randomUUID(), mail.to, mail.subject, mail.text, mail.html],
      );
    },
    async close() {},
  };
}

type OutboxRow = {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: string | Date;
};

/** Newest first. */
export async function listOutbox(db: Queryable, limit = 200): Promise<OutboxMessage[]> {
  const { rows } = await db.query<OutboxRow>(
    'SELECT id, to_address, subject, text_body, html_body, created_at FROM mail_outbox ORDER BY seq DESC LIMIT $1',
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    to: r.to_address,
    subject: r.subject,
    text: r.text_body,
    html: r.html_body,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
