import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

/**
 * The `yaml` package, loaded at first use (40-70 ms of module loading): `plan` and `apply` of a valid fleet file
 * read it with js-yaml and never need it; `export`, `import` and a fleet file's problems do.
 */
export function yamlPackage(): typeof Yaml {
  loaded ??= require('yaml') as typeof Yaml;
  return loaded;
}
