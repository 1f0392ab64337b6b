// A one-operation OpenAPI 3.0 spec (GET /widgets/{id}) secured as a test says: for the credentials tests.
export function securedSpec(schemes: Record<string, object>, security: Record<string, string[]>[]): string {
  return JSON.stringify(
    {
      openapi: '3.0.3',
      info: { title: 'secured widgets', version: '1.0.0' },
      security,
      paths: {
        '/widgets/{id}': {
          get: {
            operationId: 'getWidget',
            parameters: [
              { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1, maximum: 1000 } },
            ],
            responses: {
              '200': {
                description: 'the widget',
                content: {
                  'application/json': {
                    schema: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
                  },
                },
              },
              '400': { description: 'a bad id' },
              '401': { description: 'no credential' },
            },
          },
        },
      },
      components: { securitySchemes: schemes },
    },
    null,
    2,
  );
}
