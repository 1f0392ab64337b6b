// swagger2openapi renames component keys a 3.0 component name may not hold (OpenAPI 3.0.3 §4.7.7: keys match
// `^[a-zA-Z0-9\.\-_]+$`): `Pet[]` → `PetArray`, `a b` → `a_b` (oas-kit-common's `sanitise`, copied here so the
// mapping back stays in step with it). These tables give the 2.0 key back.
type Node = Record<string, unknown>;

export interface ComponentKeys {
  definitions: Map<string, string>;
  parameters: Map<string, string>;
  responses: Map<string, string>;
  securityDefinitions: Map<string, string>;
}

export function sanitise(name: string): string {
  const steps = name.replace('[]', 'Array').split('/');
  steps[0] = steps[0]!.replace(/[^A-Za-z0-9_\-.]+|\s+/gm, '_');
  return steps.join('/');
}

export function componentKeys(source: Node): ComponentKeys {
  const table = (section: unknown) => {
    const names = new Map<string, string>();
    if (section === null || typeof section !== 'object' || Array.isArray(section)) return names;
    // The first 2.0 key wins a clash (the converter refuses most clashes).
    for (const key of Object.keys(section)) if (!names.has(sanitise(key))) names.set(sanitise(key), key);
    return names;
  };
  return {
    definitions: table(source.definitions),
    parameters: table(source.parameters),
    responses: table(source.responses),
    securityDefinitions: table(source.securityDefinitions),
  };
}

/** The 2.0 key of a converted component name (itself when it was not renamed). */
export function sanitisedName(names: Map<string, string>, converted: string): string {
  return names.get(converted) ?? converted;
}
