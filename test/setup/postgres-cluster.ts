// The cluster helper lives in src so that benchmarks (compiled to dist) use it too.
export { findPostgresBin, startTempCluster, type TempCluster } from '../../src/platform/postgres-cluster';
