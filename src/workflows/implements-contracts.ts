// Compile-time only (`npm run typecheck`): every contract in ./contracts has its implementation in
// ./index, exported under the contract's name with the contract's signature. Nothing imports this.
import type { WORKFLOW_DEFINITIONS } from './contracts';
import type * as implementations from './index';

type Implements<Module, Definitions> = Module extends Definitions ? true : false;
export const contractsImplemented: Implements<typeof implementations, typeof WORKFLOW_DEFINITIONS> = true;
