/** Where the KurrentDB contract runs: EVENTSTORE_URL's server, a throwaway container, or nowhere and why. */
export type KurrentdbTestServer =
  | { kind: 'url'; connectionString: string }
  | { kind: 'docker' }
  | { kind: 'none'; reason: string };

const IMAGE = 'kurrentplatform/kurrentdb:25.0';
const DOCKER_PROBE_MS = 10_000;

export async function locateKurrentdb(): Promise<KurrentdbTestServer> {
  const url = process.env.EVENTSTORE_URL;
  if (url) return { kind: 'url', connectionString: url };
  const reason = await dockerUnreachable();
  if (reason === null) return { kind: 'docker' };
  return { kind: 'none', reason: `EVENTSTORE_URL is not set and no Docker engine is reachable (${reason})` };
}

/** Null when a container runtime answers; testcontainers also finds sockets other than /var/run/docker.sock. */
async function dockerUnreachable(): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${DOCKER_PROBE_MS} ms`)), DOCKER_PROBE_MS);
  });
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await Promise.race([getContainerRuntimeClient(), timeout]);
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `@testcontainers/kurrentdb` needs testcontainers 12 (Node 22), so the container is described by hand:
 * insecure (plain gRPC), in memory, without projections, ready once its liveness endpoint answers.
 */
export async function startKurrentdbContainer(): Promise<{ connectionString: string; stop(): Promise<void> }> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer(IMAGE)
    .withEnvironment({ KURRENTDB_INSECURE: 'true', KURRENTDB_RUN_PROJECTIONS: 'None', KURRENTDB_MEM_DB: 'true' })
    .withExposedPorts(2113)
    .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCodeMatching((code) => code >= 200 && code < 300))
    .withStartupTimeout(120_000)
    .start();
  return {
    connectionString: `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`,
    stop: async () => {
      await container.stop();
    },
  };
}
