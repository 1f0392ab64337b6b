// Where the stateful sandbox's start-up goes (issue #47: answering within 5 s of start on GitHub's 13 MB
// description), phase by phase, in a fresh process of its own (`node --import tsx bench/sandbox-start-phases.ts
// FILE [PATH]`; stateful-vs-prism.ts runs it): read and parse (loadSpec: JSON.parse or YAML, upgrade to 3.1, the
// index of operations), compile (compileContract: validators lazy, per operation on first use), model
// (buildResourceModel), the engine as the sandbox builds it (statefulEngine: both again, and its facts), the example
// seeds (exampleSeeds: validators of resources with an example compiled here), and the first answer (of GET PATH,
// its validators compiled then). Module loading is not in these figures (the spawn-to-answer figure has it all).
import { compileContract } from '../src/core/compile-contract.js';
import { loadSpec } from '../src/core/load-spec.js';
import { buildResourceModel } from '../src/core/resource-model/build-resource-model.js';
import { engineAnswer } from '../src/mock/engine/dynamic-answer.js';
import { exampleSeeds, plant } from '../src/mock/engine/seed-data.js';
import { statefulEngine } from '../src/mock/engine/stateful-engine.js';
import { round } from './bench-util.js';

const [file, probe = '/'] = process.argv.slice(2);
if (!file) throw new Error('usage: sandbox-start-phases.ts FILE [PATH]');

const seconds = (since: bigint) => round(Number(process.hrtime.bigint() - since) / 1e9, 3);
let at = process.hrtime.bigint();
const spec = await loadSpec(file);
const parse = seconds(at);
at = process.hrtime.bigint();
compileContract(spec, { lazy: true, lazyRequests: true });
const compile = seconds(at);
at = process.hrtime.bigint();
buildResourceModel(spec.document);
const model = seconds(at);
// The engine as the sandbox builds it: the compile and the model again (warm now, so faster than above: each is
// its own, not shared with the two timed above) and its per-resource facts.
at = process.hrtime.bigint();
const stateful = statefulEngine(spec);
const engine = seconds(at);
at = process.hrtime.bigint();
const seeds = exampleSeeds(stateful);
plant(stateful, seeds);
const seed = seconds(at);
at = process.hrtime.bigint();
const answer = engineAnswer(stateful, { method: 'GET', path: probe, query: '', headers: {}, body: '' });
const firstAnswer = seconds(at);
console.log(
  JSON.stringify({
    parseSeconds: parse,
    compileSeconds: compile,
    modelSeconds: model,
    engineSeconds: engine,
    seedSeconds: seed,
    seeds: seeds.length,
    firstAnswerSeconds: firstAnswer,
    firstAnswerStatus: answer.status,
    resources: stateful.resources.size,
  }),
);
