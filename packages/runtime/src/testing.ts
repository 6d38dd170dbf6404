// ./testing entry: the adversarial containment suite every agent adapter runs (issue 31), and the
// tools it checks with.

export type {
  ContainmentContext,
  ContainmentHarness,
  ContainmentScript,
  ContainmentTurn,
  ServedModel,
} from './testing/containment/containment-setup.js';
export {
  type AttackRun,
  ContainmentWorld,
  withWorld,
} from './testing/containment/containment-world.js';
export { describeContainment } from './testing/containment/describe-containment.js';
export { processesWith } from './testing/containment/surviving-processes.js';
export { type DigestEntry, treeDigest } from './testing/containment/tree-digest.js';
