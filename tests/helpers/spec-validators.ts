// Judges a response against the shipped specs with the conformance core itself (compileContract + checkExchange).
import { specPath, type ApiName } from '../../src/config/project.js';
import { seedProject } from '../../src/config/seed-project.js';
import { checkExchange } from '../../src/core/check-exchange.js';
import { compileContract, type Contract } from '../../src/core/compile-contract.js';
import { loadSpec } from '../../src/core/load-spec.js';

const cache = new Map<ApiName, Promise<Contract>>();

function contractFor(api: ApiName): Promise<Contract> {
  let contract = cache.get(api);
  if (!contract) {
    contract = loadSpec(specPath(seedProject.api(api))).then((spec) => compileContract(spec, { strict: true }));
    cache.set(api, contract);
  }
  return contract;
}

/** Problems with a response, as messages (warnings included); an empty array when it conforms, strictly. */
export async function responseProblems(
  api: ApiName,
  method: string,
  path: string,
  status: number,
  contentType: string | null,
  body: string,
): Promise<string[]> {
  const exchange = { method, path, status, headers: contentType === null ? {} : { 'content-type': contentType }, body };
  return checkExchange(await contractFor(api), exchange, { strict: true }).findings.map(
    (finding) => `${finding.check}: ${finding.message}`,
  );
}
