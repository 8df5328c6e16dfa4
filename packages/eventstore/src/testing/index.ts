export { type ContractFixture, eventStoreContract } from './eventStoreContract';
