import type { MatrixRow } from '../matrixTypes';

// PLACEHOLDER: rows arrive with the route group.
export const contentItemRows: MatrixRow[] = [];
