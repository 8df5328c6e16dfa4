import { type EmbeddedCluster, runningCluster } from '@qiraa/db';

/** The joined cluster moved to `port` (its owner restarted it), or stopped (`port` null). */
export interface ClusterLost {
  line: string;
  port: number | null;
}

/**
 * A worker that joined the embedded PostgreSQL another process (the API) runs cannot follow it when that
 * process restarts it on another port: its pool would dial the old port forever (issue 23: `connect
 * ECONNREFUSED` every sweep while /readyz said ready). This watches the cluster's postmaster.pid and calls
 * `lost` once, with one line saying what happened: when the cluster runs on another port (the worker
 * re-joins it), or when none has run for `graceMs` (the worker exits 1: starting the cluster itself would
 * race the owner's own restart, which stops the old cluster before it starts the new one). A restart on
 * the same port needs nothing: the pool reconnects. Returns the stop function.
 */
export function watchJoinedCluster(
  cluster: EmbeddedCluster | undefined,
  lost: (event: ClusterLost) => void,
  options: { intervalMs?: number; graceMs?: number } = {},
): () => void {
  if (cluster?.ownership !== 'joined') return () => {};
  const graceMs = options.graceMs ?? 30_000;
  let goneSince: number | null = null;
  const timer = setInterval(() => {
    const port = runningCluster(cluster.dataDir);
    if (port === cluster.port) {
      goneSince = null;
      return;
    }
    if (port === null) {
      goneSince ??= performance.now();
      if (performance.now() - goneSince < graceMs) return;
    }
    clearInterval(timer);
    lost({
      port,
      line:
        port === null
          ? `the embedded PostgreSQL this worker joined (port ${cluster.port}) stopped and did not come back in ${Math.round(graceMs / 1000)} s; start the worker again once the API runs`
          : `the embedded PostgreSQL this worker joined moved from port ${cluster.port} to ${port} (its owner restarted); re-joining`,
    });
  }, options.intervalMs ?? 1000);
  timer.unref();
  return () => clearInterval(timer);
}
