// Types of lint/comment-paths.js, plain JavaScript because eslint.config.js loads it as it is.
import type { Rule } from 'eslint';

export function resolves(name: string, file: string, files?: ReadonlySet<string>): boolean;
declare const rule: Rule.RuleModule;
export default rule;
