/** The places searched for the configuration in each directory, in order (see `findConfig`). */
export const SEARCH_PLACES: readonly string[] = [
  "package.json",
  ".toolgaterc",
  ".toolgaterc.yaml",
  ".toolgaterc.yml",
  ".toolgaterc.json",
  ".config/toolgaterc.yaml",
  ".config/toolgaterc.yml",
  "toolgate.config.yaml",
  "toolgate.config.yml",
  "toolgate.config.json",
];
