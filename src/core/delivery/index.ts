// Deliveries under contract: what a receiver got, checked against the spec's webhooks.
export { checkDelivery, type DeliveryResult } from './check-delivery.js';
export { compileDeliveryContract, type DeliveryContract } from './delivery-contract.js';
export { deliveryHeader, type DeliveryExpectation, type ReceivedDelivery } from './received-delivery.js';
