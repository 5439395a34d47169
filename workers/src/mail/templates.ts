import type { Mail } from './mailer';

export const PRODUCT_NAME = 'Kosh';

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** `APP_URL` may end with a slash or not. */
const joinUrl = (appUrl: string, pathAndQuery: string) => `${appUrl.replace(/\/+$/, '')}${pathAndQuery}`;

export function verificationLink(appUrl: string, token: string, email: string): string {
  return joinUrl(
    appUrl,
    `/verify-email?token=${encodeURIComponent(token)}&email=${encodeURIComponent(email)}`,
  );
}

export function resetLink(appUrl: string, token: string): string {
  return joinUrl(appUrl, `/reset-password?token=${encodeURIComponent(token)}`);
}

const button = (link: string, action: string) =>
  `<p style="margin:24px 0"><a href="${escapeHtml(link)}" style="background:#2d72d2;color:#fff;padding:10px 16px;border-radius:4px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#5f6b7c">If the button does not work, open this link: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`;

function layout(
  to: string,
  subject: string,
  paragraphs: string[],
  link: string | null,
  action: string,
  after: string[],
): Mail {
  const text = [...paragraphs, '', ...(link ? [link, ''] : []), ...after, '', `— ${PRODUCT_NAME}`].join('\n');
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#1c2127;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px;margin:0 0 24px">${PRODUCT_NAME}</h1>
${paragraphs.map(p).join('\n')}
${link ? button(link, action) : ''}
${after.map(p).join('\n')}
<p style="margin:24px 0 0;color:#5f6b7c">— ${PRODUCT_NAME}</p>
</body></html>`;
  return { to, subject, text, html };
}

export function verificationMail(input: { appUrl: string; to: string; token: string }): Mail {
  return layout(
    input.to,
    `Verify your email address for ${PRODUCT_NAME}`,
    [`Welcome to ${PRODUCT_NAME}!`, 'Please confirm your email address by opening this link:'],
    verificationLink(input.appUrl, input.token, input.to),
    'Verify email',
    [`If you did not create a ${PRODUCT_NAME} account, you can ignore this email.`],
  );
}

export function passwordResetMail(input: { appUrl: string; to: string; token: string }): Mail {
  return layout(
    input.to,
    `Reset your ${PRODUCT_NAME} password`,
    [
      `Someone asked to reset the password of your ${PRODUCT_NAME} account.`,
      'To choose a new password, open this link:',
    ],
    resetLink(input.appUrl, input.token),
    'Reset password',
    [
      'The link expires in 1 hour and works once.',
      'If you did not ask for this, you can ignore this email: your password stays the same.',
    ],
  );
}

/** Mailed to the new address of a profile e-mail change: the change happens when it is opened. */
export function emailChangeMail(input: { appUrl: string; to: string; token: string }): Mail {
  return layout(
    input.to,
    `Confirm your new email address for ${PRODUCT_NAME}`,
    [
      `Someone asked to use this address for their ${PRODUCT_NAME} account.`,
      'To confirm the change, open this link:',
    ],
    verificationLink(input.appUrl, input.token, input.to),
    'Confirm email',
    [`If you did not ask for this, ignore this email: no account will use this address.`],
  );
}

/** Mailed to the owner of an address that someone tried to register or to move an account to. */
export function claimNoticeMail(input: { appUrl: string; to: string; via: 'register' | 'profile' }): Mail {
  const registering = input.via === 'register';
  const attempt = registering
    ? `Someone tried to register a new ${PRODUCT_NAME} account with your address.`
    : `Someone tried to change the address of another ${PRODUCT_NAME} account to yours.`;
  return layout(
    input.to,
    registering
      ? `Someone tried to register with your address on ${PRODUCT_NAME}`
      : `Someone tried to move another ${PRODUCT_NAME} account to your address`,
    [attempt, 'Your account already uses this address, so nothing was changed and no new account was made.'],
    null,
    '',
    [
      `If it was you, sign in at ${input.appUrl.replace(/\/+$/, '')}/login, or reset your password there if you forgot it.`,
      'If it was not you, you can ignore this email.',
    ],
  );
}

/** Where an auditor opens the accounts shared with them (after signing in with this address). */
export const auditLink = (appUrl: string) => joinUrl(appUrl, '/audits');

/**
 * Mailed to the address an owner granted read-only access to. The same mail whether or not the
 * address has an account: the owner learns nothing from it, the auditor signs up if need be.
 */
export function auditGrantMail(input: {
  appUrl: string;
  to: string;
  ownerName: string;
  expiresAt: string;
}): Mail {
  const until = new Intl.DateTimeFormat('en-IN', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'Asia/Kolkata',
  }).format(new Date(input.expiresAt));
  return layout(
    input.to,
    `${input.ownerName} shared their ${PRODUCT_NAME} account with you (read-only)`,
    [
      `${input.ownerName} gave you read-only access to their ${PRODUCT_NAME} account until ${until} (India time).`,
      `Sign in to ${PRODUCT_NAME} with this address (or create an account with it) and open:`,
    ],
    auditLink(input.appUrl),
    'Open shared accounts',
    [
      'Every page you open there is recorded and shown to the account owner.',
      'If you did not expect this, you can ignore this email.',
    ],
  );
}

const indiaTime = (iso: string) =>
  new Intl.DateTimeFormat('en-IN', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'Asia/Kolkata',
  }).format(new Date(iso));

/** Issue 32: the owner asked to delete their account; it goes at `eraseAfter` unless they sign in. */
export function erasureScheduledMail(input: { appUrl: string; to: string; eraseAfter: string }): Mail {
  return layout(
    input.to,
    `Your ${PRODUCT_NAME} account will be deleted`,
    [
      `You asked to delete your ${PRODUCT_NAME} account. It and everything in it will be erased on ${indiaTime(input.eraseAfter)} (India time).`,
      'Changed your mind? Sign in before then, or choose "Cancel deletion" on your profile, and nothing is deleted:',
    ],
    joinUrl(input.appUrl, '/login'),
    'Sign in to keep your account',
    ['If you did not ask for this, sign in now and change your password.'],
  );
}

/** Issue 32: the pending deletion was cancelled (by signing in, or by "Cancel deletion"). */
export function erasureCancelledMail(input: {
  appUrl: string;
  to: string;
  via: 'restore' | 'sign-in';
}): Mail {
  return layout(
    input.to,
    `Your ${PRODUCT_NAME} account will not be deleted`,
    [
      input.via === 'sign-in'
        ? `You signed in to ${PRODUCT_NAME}, so the deletion of your account you asked for is cancelled.`
        : `The deletion of your ${PRODUCT_NAME} account you asked for is cancelled.`,
      'Your account and everything in it stay as they were.',
    ],
    null,
    '',
    ['If you did not do this, sign in and change your password.'],
  );
}

/** Issue 32: sent once the account is erased; no name, nothing of the account in it. */
export function accountErasedMail(input: { appUrl: string; to: string }): Mail {
  return layout(
    input.to,
    `Your ${PRODUCT_NAME} account has been deleted`,
    [
      `Your ${PRODUCT_NAME} account has been erased as you asked: your profile, loans, transactions, accounts, imports and their history.`,
      'This address is no longer known to us; this is the last mail we send to it.',
    ],
    null,
    '',
    [],
  );
}

/** Issue 32: mailed when an account signs in from a browser and system it never used before. */
export function newSignInMail(input: {
  appUrl: string;
  to: string;
  browser: string;
  os: string;
  address: string;
  at: string;
}): Mail {
  const when = new Intl.DateTimeFormat('en-IN', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'Asia/Kolkata',
  }).format(new Date(input.at));
  return layout(
    input.to,
    `New sign-in to your ${PRODUCT_NAME} account`,
    [
      `Your ${PRODUCT_NAME} account was signed in to from ${input.browser} on ${input.os} (address ${input.address}) on ${when} (India time).`,
      'If this was you, there is nothing to do.',
    ],
    joinUrl(input.appUrl, '/profile'),
    'Review sessions',
    [
      'If it was not you, open your profile, end that session and change your password, and turn on two-factor sign-in.',
    ],
  );
}

/** Mailed when an operator turned two-factor sign-in off (`npm run reset-two-factor`). */
export function twoFactorResetMail(input: { appUrl: string; to: string }): Mail {
  return layout(
    input.to,
    `Two-factor sign-in on your ${PRODUCT_NAME} account was turned off`,
    [
      `At your request, ${PRODUCT_NAME} support turned off two-factor sign-in on your account and signed out every session.`,
      'Sign in with your password, then turn two-factor sign-in on again from your profile.',
    ],
    joinUrl(input.appUrl, '/profile'),
    'Open your profile',
    [
      'If you did not ask for this, reset your password now and write to support: someone may be trying to take over your account.',
    ],
  );
}

/**
 * A reminder (issue 31): what is due, when and how much, with the one-click unsubscribe link
 * in the body and in `List-Unsubscribe` / `List-Unsubscribe-Post` (RFC 8058).
 */
export function reminderMail(input: {
  to: string;
  firstName: string | null;
  kindLabel: string;
  reminder: {
    title: string;
    dueDate: string;
    amount: number;
    direction: 'C' | 'D';
    headline?: { subject: string; text: string };
  };
  unsubscribeUrl: string;
}): Mail {
  const { reminder } = input;
  const [y, m, d] = reminder.dueDate.split('-');
  const date = `${d}/${m}/${y}`;
  const amount = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(
    reminder.amount / 100,
  );
  const mail = layout(
    input.to,
    reminder.headline?.subject ?? `Reminder: ${reminder.title} due on ${date}`,
    [
      `Hello ${input.firstName || 'User'},`,
      reminder.headline?.text ??
        `${reminder.title} is due on ${date}: ${amount} ${reminder.direction === 'C' ? 'to come in' : 'to pay'}.`,
    ],
    null,
    '',
    [
      `You get this because ${input.kindLabel} reminders are on in your ${PRODUCT_NAME} profile.`,
      `To stop them, open: ${input.unsubscribeUrl}`,
    ],
  );
  return {
    ...mail,
    headers: {
      'List-Unsubscribe': `<${input.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
