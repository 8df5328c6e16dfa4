export { type ProbePlace, recordOrfProbe } from '../monitoring/orfProbeFixture';
