import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

const FORMAT = 'v1';

/** AES-256-GCM encryption of small secrets (instance API keys) under a key derived from ARRGO_SECRET. */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.from('arrgo'), Buffer.from('instance-api-keys'), 32));
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [FORMAT, iv.toString('base64'), tag.toString('base64'), body.toString('base64')].join('.');
  }

  decrypt(sealed: string): string {
    const [format, iv, tag, body] = sealed.split('.');
    if (format !== FORMAT || !iv || !tag || body === undefined) throw new Error('unrecognised sealed secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }
}

/** Constant-time comparison that does not leak the length of the expected value. */
export function constantTimeEquals(given: string, expected: string): boolean {
  return constantTimeMatcher(expected)(given);
}

/** constantTimeEquals against a fixed expected value, hashed once (the API key check runs per request). */
export function constantTimeMatcher(expected: string): (given: string) => boolean {
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return (given) => timingSafeEqual(createHash('sha256').update(given, 'utf8').digest(), b);
}

export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

/** Hex SHA-256 of a string (stored in place of a bearer secret such as a session id). */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
