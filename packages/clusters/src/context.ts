import { defineContext } from '@qiraa/kernel';
import type { ClusterInputsPort } from './engine/clusterInputs';
import { CLUSTERS_PROJECTIONS, CLUSTERS_REACTIONS } from './projections';
import { decisionsInputs } from './queries/decisionsInputs';
import { parentNotifier } from './reactions/parentNotifier';
import { clusterRoutes } from './routes/clusterRoutes';

/** The clusters context with an input port (the decisions adapter by default). */
export const clustersContextWith = (inputs: ClusterInputsPort) =>
  defineContext({
    name: 'clusters',
    projections: CLUSTERS_PROJECTIONS,
    // Bundle credits (projections/) and the parents' activation notice (reactions/).
    reactions: [...CLUSTERS_REACTIONS, parentNotifier],
    routes: (deps) => clusterRoutes(deps, inputs),
  });

/**
 * Clusters: groups a class's students with the same support need, by a pinned rule set, into generations on
 * `clustergen-<classId>`, and activates a cluster's bundle for its confirmed members (`bundleassign-<id>`).
 * Reads decisions only through its exports (queries/decisionsInputs.ts).
 */
export const clustersContext = clustersContextWith(decisionsInputs);
