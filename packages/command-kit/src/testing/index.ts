export { DeciderSpecification, type DeciderThen, type ExpectedEvent } from './deciderSpecification';
export { applyProjection, type GivenStream, ProjectionSpecification } from './projectionSpecification';
export { recordedEvents } from './recorded';
