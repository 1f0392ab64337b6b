// An option of the table with its parser: what the user typed (or the default) becomes a typed value, or a usage
// error in one line (exit 2). parse-args.ts runs every parser once before the command runs, so a bad value stops the
// run before anything starts; the command reads the typed value with valueOf.
import type { OptionSpec, ParsedOptions, RawOptionValue } from '../command.js';

export interface TypedOption<T> extends OptionSpec {
  parse(raw: RawOptionValue): T;
}

/** The typed value of an option of the command's table (parsed again: parsers are pure and cheap). */
export function valueOf<T>(options: ParsedOptions, option: TypedOption<T>): T {
  return option.parse(options[option.name]);
}

/** The same option (same name, type and parser) with another help line, default or combination rule. */
export function withOption<T>(
  option: TypedOption<T>,
  changes: Partial<Pick<OptionSpec, 'description' | 'default' | 'requires' | 'conflicts'>>,
): TypedOption<T> {
  return { ...option, ...changes };
}

/** A string option's value as given, or undefined (the parser of options that take any text). */
export function text(raw: RawOptionValue): string | undefined {
  return typeof raw === 'string' ? raw : undefined;
}

/** A repeatable option's values, in the order given. */
export function texts(raw: RawOptionValue): string[] {
  return Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
}
