/** Value checks shared by the schema sections: each returns an error message or undefined. */
export const listenCheck = (v: string) =>
  /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9_.-]*):\d{1,5}$/.test(v) ? undefined : 'expected "host:port"'
export const positive = (v: number) => (v > 0 ? undefined : 'must be greater than 0')
export const nonNegative = (v: number) => (v >= 0 ? undefined : 'must not be negative')
export const oneOf = (values: string[]) => (v: string) =>
  values.includes(v) ? undefined : `one of ${values.join(', ')}`
