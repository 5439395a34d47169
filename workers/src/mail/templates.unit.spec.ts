import { describe, expect, it } from 'vitest';
import { claimNoticeMail, emailChangeMail, passwordResetMail, verificationMail } from './templates';

describe('account mails', () => {
  it('carries the product name, a text and an HTML part, and the full verification link', () => {
    const mail = verificationMail({
      appUrl: 'https://kosh.example/',
      to: 'a+b@example.in',
      token: 'T0k-en_',
    });
    const link = 'https://kosh.example/verify-email?token=T0k-en_&email=a%2Bb%40example.in';
    expect(mail.to).toBe('a+b@example.in');
    expect(mail.subject).toContain('Kosh');
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(link.replace('&', '&amp;'));
    expect(mail.html).toContain('Kosh');
  });

  it('links the reset page and says the link lasts 1 hour', () => {
    const mail = passwordResetMail({ appUrl: 'http://127.0.0.1:3000', to: 'a@example.in', token: 'abc' });
    expect(mail.text).toContain('http://127.0.0.1:3000/reset-password?token=abc');
    expect(mail.text).toContain('1 hour');
    expect(mail.subject).toBe('Reset your Kosh password');
  });

  it('asks the new address to confirm an e-mail change with a verification link', () => {
    const mail = emailChangeMail({ appUrl: 'http://kosh.test', to: 'new@example.in', token: 'abc' });
    expect(mail.to).toBe('new@example.in');
    expect(mail.subject).toBe('Confirm your new email address for Kosh');
    expect(mail.text).toContain('http://kosh.test/verify-email?token=abc&email=new%40example.in');
  });

  it('tells the owner that someone tried to register with their address, with no link to act on', () => {
    const mail = claimNoticeMail({ appUrl: 'http://kosh.test/', to: 'owner@example.in', via: 'register' });
    expect(mail.subject).toBe('Someone tried to register with your address on Kosh');
    expect(mail.text).toContain('Someone tried to register a new Kosh account with your address.');
    expect(mail.text).toContain('http://kosh.test/login');
    expect(mail.text).not.toContain('token=');
    expect(mail.html).not.toContain('<a ');
  });

  it('tells the owner of an attempted e-mail change without speaking of registering', () => {
    const mail = claimNoticeMail({ appUrl: 'http://kosh.test/', to: 'owner@example.in', via: 'profile' });
    expect(mail.subject).toBe('Someone tried to move another Kosh account to your address');
    expect(mail.subject).not.toMatch(/regist/i);
    expect(mail.text).toContain('Someone tried to change the address of another Kosh account to yours.');
  });
});
