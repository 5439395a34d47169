import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** A 1×1 PNG and a 1×1 GIF: real images for file-type to recognise. */
export const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
export const GIF_1PX = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export const dataUrl = (bytes: Buffer, type = 'image/png') =>
  `data:${type};base64,${bytes.toString('base64')}`;

/** A multipart/form-data body with one file field, for `app.inject`. */
export function multipartFile(field: string, fileName: string, contentType: string, bytes: Buffer) {
  const boundary = `----kosh${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
      `Content-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, bytes, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The `token` query parameter of the first link to `path` in a mail's text. */
export function tokenFromLink(text: string, path: '/verify-email' | '/reset-password'): string {
  const link = text.split(/\s+/).find((word) => word.includes(`${path}?`));
  if (!link) throw new Error(`No ${path} link in: ${text}`);
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`No token in ${link}`);
  return token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export async function register(
  app: FastifyInstance,
  body: { first_name?: string; last_name?: string; email?: string; password?: string },
) {
  return app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
}
