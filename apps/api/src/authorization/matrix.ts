import type { MatrixRow } from './matrixTypes';
import { assessmentOralRows } from './rows/assessmentOral';
import { assessmentPageRows } from './rows/assessmentPage';
import { assessmentSheetRows } from './rows/assessmentSheets';
import { assessmentSittingRows } from './rows/assessmentSittings';
import { auditingRows } from './rows/auditing';
import { blueprintRows } from './rows/blueprints';
import { clusterRows } from './rows/clusters';
import { contentCatalogRows } from './rows/contentCatalog';
import { contentFormRows } from './rows/contentForms';
import { contentImportRows } from './rows/contentImport';
import { contentItemRows } from './rows/contentItems';
import { contextFlagRows } from './rows/contextFlags';
import { decisionMonitoringRows } from './rows/decisionMonitoring';
import { decisionProfileRows } from './rows/decisionProfiles';
import { decisionRows } from './rows/decisions';
import { deliveryRows } from './rows/delivery';
import { gamificationRows } from './rows/gamification';
import { gamificationAdminRows } from './rows/gamificationAdmin';
import { identityAccountRows } from './rows/identityAccount';
import { identityClassRows } from './rows/identityClasses';
import { identityCoreRows } from './rows/identityCore';
import { identityListRows } from './rows/identityLists';
import { identityPasswordlessRows, oidcRows, passkeyRows } from './rows/identityPasswordless';
import { leaderboardRows } from './rows/leaderboards';
import { notificationRows } from './rows/notifications';
import { parentPortalRows } from './rows/parentPortal';
import { reportRows } from './rows/reports';
import { sessionRows } from './rows/sessions';
import { trainingRows } from './rows/training';
import { trainingAlertRows } from './rows/trainingAlerts';
import { wordListAdminRows } from './rows/wordListsAdmin';

/** Route × caller × target → status, one file of rows per context. Every /api route must have a row. */
export const MATRIX: readonly MatrixRow[] = [
  ...identityCoreRows,
  ...identityListRows,
  ...identityClassRows,
  ...identityAccountRows,
  ...gamificationRows,
  ...gamificationAdminRows,
  ...leaderboardRows,
  ...notificationRows,
  ...contentCatalogRows,
  ...contentImportRows,
  ...contentItemRows,
  ...wordListAdminRows,
  ...contentFormRows,
  ...assessmentSheetRows,
  ...assessmentPageRows,
  ...assessmentSittingRows,
  ...assessmentOralRows,
  ...decisionRows,
  ...decisionMonitoringRows,
  ...decisionProfileRows,
  ...reportRows,
  ...identityPasswordlessRows,
  ...passkeyRows,
  ...oidcRows,
  ...blueprintRows,
  ...sessionRows,
  ...trainingAlertRows,
  ...deliveryRows,
  ...parentPortalRows,
  ...clusterRows,
  ...trainingRows,
  ...contextFlagRows,
  ...auditingRows,
];
