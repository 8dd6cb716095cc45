// The dependency graph of a database's resolved state (GET /pcd/{id}/graph): what the graph page
// draws. The filters are the API's query parameters; the API says what each node opens.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap, type components, type operations } from './client';
import { pcdKeys } from './pcd';

type Schemas = components['schemas'];
export type PcdGraph = Schemas['PcdGraph'];
export type GraphNode = PcdGraph['nodes'][number];
export type GraphEdge = PcdGraph['edges'][number];
export type GraphNodeKind = Schemas['GraphNodeKind'];
export type ArrTypeOrAll = Schemas['ArrTypeOrAll'];
export type GraphQuery = NonNullable<operations['getDependencyGraph']['parameters']['query']>;

/** Under the database's PCD key, so an edit or a pull draws the graph again. */
const graphKey = (databaseId: number, query: GraphQuery) => [...pcdKeys.database(databaseId), 'graph', query.arrType ?? null, query.nodeKind ?? null] as const;

export function useDependencyGraph(databaseId: number | null, query: GraphQuery) {
  return useQuery({
    queryKey: graphKey(databaseId ?? 0, query),
    enabled: databaseId !== null,
    queryFn: () => unwrap(api.GET('/api/v1/pcd/{databaseId}/graph', { params: { path: { databaseId: databaseId! }, query } })),
    placeholderData: keepPreviousData,
  });
}
