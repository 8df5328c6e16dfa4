export { type ProbePlace, recordOrfProbe } from './orfProbeFixture';
