// The engine as functions, from `contracts-kit` (README: "As a library"). In this repository it runs from source:
//   node -C contracts-source --import tsx examples/library.ts
import {
  checkExchange,
  checkRequest,
  diffSpecs,
  loadContract,
  startMocks,
  startReceiver,
  startSandbox,
} from 'contracts-kit';

// A contract: the spec loaded and its validators compiled, once; then any number of checks.
const contract = await loadContract('specs/client-session.yaml');

// One exchange you saw (a response, with the request's method and path): findings, each with its check and place.
const response = checkExchange(contract, {
  method: 'GET',
  path: '/client-session',
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: '{"clientToken": 42}',
});
console.log(response.operationId, response.findings.map((finding) => finding.message).slice(0, 2));

// One request, before it is sent or as a proxy saw it.
const request = checkRequest(contract, { method: 'GET', path: '/client-session', query: '', headers: {}, body: '' });
console.log(request.findings.map((finding) => `${finding.check}: ${finding.message}`).slice(0, 2));

// Prism mocks of any specs, each on a free port (or `ports`), as real processes.
const mocks = await startMocks({ specs: { sessions: 'specs/client-session.yaml' } });
const mocked = await fetch(`${mocks.urls.sessions}/client-session`, {
  headers: { 'X-API-KEY': 'any', 'X-API-VERSION': '2.4' },
});
console.log('mock', mocked.status);
await mocks.stop();

// The sandbox (a stateful implementation of the two seed APIs) and a receiver that checks the signed deliveries
// it sends: create a hook pointing at the receiver, ping it, wait for the delivery and its verdict.
const sandbox = await startSandbox({ port: 0 });
const receiver = await startReceiver({ port: 0, secret: 'hook-secret' });
const created = await fetch(`${sandbox.url}/repos/octo/app/hooks`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: 'Bearer any' },
  body: JSON.stringify({ config: { url: receiver.url, content_type: 'json', secret: 'hook-secret' } }),
});
const hook = (await created.json()) as { id: number };
await fetch(`${sandbox.url}/repos/octo/app/hooks/${hook.id}/pings`, {
  method: 'POST',
  headers: { authorization: 'Bearer any' },
});
const delivery = await receiver.waitFor(() => true, 5_000);
console.log('delivery', delivery?.result.event, delivery?.result.findings.length, 'findings');
await receiver.stop();
await sandbox.stop();

// What a spec change breaks for its clients: level, rule, message and place of each change.
for (const change of await diffSpecs('examples/my-api.yaml', 'examples/my-api-v2.yaml'))
  console.log(change.level, change.rule, change.message);
