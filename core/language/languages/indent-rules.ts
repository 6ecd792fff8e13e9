import type { IndentRules } from '../language-spec.ts'

/**
 * Atom's bracket patterns (language-javascript, language-json): the next line goes deeper after an opening
 * bracket that the line does not close; a line starting with a closing bracket goes back. They read the line
 * with strings and comments blanked, so `"{"` or `// (` does not count.
 */
export const bracketIndentRules: IndentRules = {
  increase: (_line, code) => /\{[^}]*$|\[[^\]]*$|\([^)]*$/.test(code),
  decrease: (_line, code) => /^\s*[}\])]/.test(code),
}
