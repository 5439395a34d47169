import argon2 from 'argon2';

/** OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): safe, and cheap enough for a small server. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => argon2.hash(password, OPTIONS);

let dummyHash: Promise<string> | null = null;

/**
 * Checks a password against a stored argon2id hash. For an unknown account (`hash` null) it
 * verifies against a throw-away hash with the same parameters, so the answer takes as long
 * whether or not the e-mail exists.
 */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  dummyHash ??= argon2.hash('not a real password', OPTIONS);
  const target = hash ?? (await dummyHash);
  try {
    const matches = await argon2.verify(target, password);
    return hash !== null && matches;
  } catch {
    return false;
  }
}
