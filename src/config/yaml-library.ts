/**
 * The `yaml` package, loaded when it is first needed. Loading it costs about 35 ms, and most loads never need
 * it: files written as JSON or as plain block YAML are read by the parser's fast paths (parse-yaml.ts), and a
 * controller, a hook or `toolgate lint` on such files then start without it. It is the package's Node build
 * (CommonJS), the very module an `import ... from "yaml"` gets, so nodes made by one are known to the other.
 */
import { createRequire } from "node:module";
import type * as Yaml from "yaml";

let loaded: typeof Yaml | undefined;

/** The `yaml` package (loaded on the first call). */
export function yamlLibrary(): typeof Yaml {
  loaded ??= createRequire(import.meta.url)("yaml") as typeof Yaml;
  return loaded;
}

// The node tests, loading the package when first called (a node to test means it is loaded already).

/** `yaml`'s `isMap`. */
export function isMap(node: unknown): node is Yaml.YAMLMap {
  return yamlLibrary().isMap(node);
}

/** `yaml`'s `isSeq`. */
export function isSeq(node: unknown): node is Yaml.YAMLSeq {
  return yamlLibrary().isSeq(node);
}

/** `yaml`'s `isScalar`. */
export function isScalar(node: unknown): node is Yaml.Scalar {
  return yamlLibrary().isScalar(node);
}

/** `yaml`'s `isPair`. */
export function isPair(node: unknown): node is Yaml.Pair {
  return yamlLibrary().isPair(node);
}

/** `yaml`'s `isAlias`. */
export function isAlias(node: unknown): node is Yaml.Alias {
  return yamlLibrary().isAlias(node);
}
