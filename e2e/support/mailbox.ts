import { type APIRequestContext, expect } from '@playwright/test';

/** One message of the embedded outbox (GET /dev/mailbox.json, newest first). */
export type Mail = { id: string; to: string; subject: string; text: string; html: string; createdAt: string };

/** Waits for the newest mail to `to` whose text links to `path`, and returns that link. */
export async function linkFromMail(request: APIRequestContext, to: string, path: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get('/dev/mailbox.json');
        const mails = (await response.json()) as Mail[];
        const pattern = new RegExp(`https?://[^\\s"<>]+${path}\\?[^\\s"<>]+`);
        link = mails
          .filter((mail) => mail.to.toLowerCase().includes(to.toLowerCase()))
          .map((mail) => pattern.exec(mail.text)?.[0])
          .find(Boolean);
        return link;
      },
      { message: `a mail to ${to} linking to ${path}`, timeout: 15_000 },
    )
    .toBeTruthy();
  return link as string;
}

/** How many mails to `to` link to `path` (to tell a new mail from an old one). */
export async function countMails(request: APIRequestContext, to: string, path: string): Promise<number> {
  const mails = (await (await request.get('/dev/mailbox.json')).json()) as Mail[];
  return mails.filter((mail) => mail.to.toLowerCase().includes(to.toLowerCase()) && mail.text.includes(path))
    .length;
}

/** Every mail to `to`, newest first. */
export async function mailsTo(request: APIRequestContext, to: string): Promise<Mail[]> {
  const mails = (await (await request.get('/dev/mailbox.json')).json()) as Mail[];
  return mails.filter((mail) => mail.to.toLowerCase() === to.toLowerCase());
}
