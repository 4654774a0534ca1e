// The linear-time regular-expression engine used by policy `regex` rules, globs and input-schema `pattern`s:
// what the rest of toolgate may import from it. Compiling and testing one pattern (`compileRegex`), the syntax
// tree for tools that build example strings (`parseRegexTree`), and many patterns run as one automaton
// (`RegexSet`). The engine's parts (syntax, program, virtual machine, pattern set) stay inside this folder.

export { MAX_SET_SIZE, MAX_SET_STATES, RegexSet, type SetAnswer } from "./set.js";
export {
  type CompileRegexResult,
  compileRegex,
  type LinearRegex,
  MAX_REGEX_PROGRAM_SIZE,
  parseRegexTree,
  REGEX_WORK_BOUND,
  type RegexNode,
} from "./syntax.js";
