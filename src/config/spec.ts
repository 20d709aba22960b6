/**
 * How a config key is described, and the types derived from the descriptions: a section's
 * value type is computed from its schema, so the schema is the only place a key is declared.
 *
 * Each section is written `{ ... } as const satisfies SectionSpec`, so every `type` and every
 * `values` list keeps its literal type for the derivation.
 */

export type KeyType =
  'string' | 'int' | 'number' | 'bool' | 'duration' | 'bytes' | 'strings' | 'tags' | 'table'

export interface KeySpec {
  type: KeyType
  default: unknown
  /** Environment variable that overrides the key (container use). */
  env?: string
  /** For a string: the only values allowed (its type is their union). */
  values?: readonly string[]
  /** Applied by a SIGHUP without a restart (reload.ts). */
  live?: boolean
  /** Extra validation; returns an error message or undefined. */
  check?: (v: never) => string | undefined
}

export type SectionSpec = Readonly<Record<string, KeySpec>>

type ValueOf<K extends KeySpec> = K['type'] extends 'string'
  ? K extends { values: readonly (infer V)[] }
    ? V
    : string
  : K['type'] extends 'int' | 'number' | 'duration' | 'bytes'
    ? number
    : K['type'] extends 'bool'
      ? boolean
      : K['type'] extends 'strings'
        ? string[]
        : K['type'] extends 'table'
          ? Record<string, unknown>
          : Record<string, string>

/** A section's values; a section of one `'*'` key is a free-form table of that key's type. */
export type SectionOf<S extends SectionSpec> = S extends { '*': infer K extends KeySpec }
  ? ValueOf<K>
  : { [Key in keyof S]: ValueOf<S[Key]> }

export type ConfigOf<Schema extends Readonly<Record<string, SectionSpec>>> = {
  [Section in keyof Schema]: SectionOf<Schema[Section]>
}
