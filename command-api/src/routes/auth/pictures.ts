import { randomBytes } from 'node:crypto';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  AUTH_MESSAGES,
  PROFILE_PICTURE_MAX_BYTES,
  PROFILE_PICTURE_TYPES,
  ValidationError,
} from '@kosh/domain';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';

const FIELD = 'profile_picture';

const reject = (message: string) => new ValidationError([{ field: FIELD, message }], message);

export const pictureTooLargeError = () => reject(AUTH_MESSAGES.pictureTooLarge);

/** `data:<type>[;params];base64,<payload>`; the declared type is ignored (checked from the bytes). */
const DATA_URL = /^data:[^,;]*((?:;[^,;]*)*),(.*)$/s;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeDataUrl(value: unknown): Buffer {
  if (typeof value !== 'string' || value.length === 0) throw reject(AUTH_MESSAGES.pictureNotImage);
  const match = DATA_URL.exec(value);
  const params = match?.[1]?.split(';').map((p) => p.trim().toLowerCase()) ?? [];
  const payload = match?.[2]?.replace(/\s+/g, '') ?? '';
  if (!match || !params.includes('base64') || payload.length % 4 !== 0 || !BASE64.test(payload)) {
    throw reject(AUTH_MESSAGES.pictureNotImage);
  }
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  if ((payload.length / 4) * 3 - padding > PROFILE_PICTURE_MAX_BYTES)
    throw reject(AUTH_MESSAGES.pictureTooLarge);
  return Buffer.from(payload, 'base64');
}

async function readMultipart(request: FastifyRequest): Promise<Buffer> {
  const part = await request.file();
  if (!part || part.fieldname !== FIELD) throw reject(AUTH_MESSAGES.pictureNotImage);
  try {
    return await part.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw reject(AUTH_MESSAGES.pictureTooLarge);
    throw error;
  }
}

/** The uploaded bytes, from the spec's JSON data URL or from multipart field `profile_picture`. */
export async function readUploadedPicture(request: FastifyRequest): Promise<Buffer> {
  const bytes = request.isMultipart()
    ? await readMultipart(request)
    : decodeDataUrl((request.body as Record<string, unknown> | null | undefined)?.[FIELD]);
  if (bytes.length === 0) throw reject(AUTH_MESSAGES.pictureNotImage);
  if (bytes.length > PROFILE_PICTURE_MAX_BYTES) throw reject(AUTH_MESSAGES.pictureTooLarge);
  return bytes;
}

export const pictureDir = (uploadsDir: string) => path.join(uploadsDir, 'profile-pictures');

/**
 * Stores an image under a random name with the extension of the type found in its bytes
 * (PNG, JPEG, WebP or GIF; anything else is refused), so it is served with that type.
 */
export async function storePicture(uploadsDir: string, bytes: Buffer): Promise<string> {
  const detected = await fileTypeFromBuffer(bytes);
  if (!detected || !(PROFILE_PICTURE_TYPES as readonly string[]).includes(detected.mime)) {
    throw reject(AUTH_MESSAGES.pictureNotImage);
  }
  const fileName = `${randomBytes(16).toString('hex')}.${detected.ext}`;
  const dir = pictureDir(uploadsDir);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, fileName), bytes, { flag: 'wx' });
  return fileName;
}

/** Best effort: a file left behind is harmless, a failed request because of it is not. */
export async function deletePicture(uploadsDir: string, fileName: string | null): Promise<void> {
  if (!fileName || fileName !== path.basename(fileName)) return;
  await unlink(path.join(pictureDir(uploadsDir), fileName)).catch(() => {});
}
