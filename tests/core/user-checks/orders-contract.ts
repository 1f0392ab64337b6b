// A small orders spec compiled in memory, for the user-checks tests: POST /orders and GET /orders/{orderId}.
import { compileContract } from '../../../src/core/compile-contract.js';
import { specFromDocument } from '../../../src/core/document-spec.js';

const order = {
  type: 'object',
  required: ['id', 'total'],
  properties: { id: { type: 'string' }, total: { type: 'integer' } },
};

export const ordersContract = () =>
  compileContract(
    specFromDocument('orders.yaml', {
      openapi: '3.1.0',
      info: { title: 'orders', version: '1' },
      paths: {
        '/orders': {
          post: {
            operationId: 'createOrder',
            responses: { '201': { description: 'Made', content: { 'application/json': { schema: order } } } },
          },
        },
        '/orders/{orderId}': {
          parameters: [{ name: 'orderId', in: 'path', required: true, schema: { type: 'string' } }],
          get: {
            operationId: 'getOrder',
            responses: { '200': { description: 'The order', content: { 'application/json': { schema: order } } } },
          },
        },
      },
    }),
  );
