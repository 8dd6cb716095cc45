import { createHash } from 'node:crypto';
import type { Digests } from '../../domain/ref-guide';
import { sha256 } from '../pcd/op-store';

/** Node's digests for the reference-guide domain (which stays free of node: modules). */
export const NODE_DIGESTS: Digests = {
  md5: (text) => createHash('md5').update(text, 'utf8').digest('hex'),
  sha256,
};
