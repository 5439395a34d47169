import { describe } from 'vitest';
import { oracleShare } from './oracle-suite';

describe('loan arithmetic against an independent exact oracle, share 2 of 4', () => {
  oracleShare(2500, 2500);
});
