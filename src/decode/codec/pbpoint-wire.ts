/**
 * The upload protobuf format (the reference agent's `com.guance.Point`), owned here and only
 * here: every field number and every pre-computed tag byte that a writer or reader of PBPoints
 * uses comes from this module.
 *
 *   PBPoints { repeated PBPoint arr = 1 }
 *   PBPoint  { string name = 1; repeated Field fields = 2; int64 time = 3; repeated Warn warns = 4 }
 *   Field    { string key = 1; oneof { int64 i = 2; uint64 u = 3; double f = 4; bool b = 5;
 *              bytes d = 6; Any a = 7; string s = 11 }; bool is_tag = 8; MetricType type = 9;
 *              string unit = 10 }
 *   Any      { string type_url = 1; bytes value = 2 }   value = Array { repeated Basic arr = 1 }
 *   Basic    { oneof { int64 i = 1; uint64 u = 2; double f = 3; bool b = 4; bytes d = 5; string s = 6 } }
 *   Warn     { string type = 1; string message = 2 }
 *
 * Invariant: every field number here is below 16, so each tag is one byte; the byte-level
 * writers (the transcoder's `fast-out.ts`) rely on it.
 */
import { Kind } from '../../shared/point.js'

export const WIRE_VARINT = 0
export const WIRE_I64 = 1
export const WIRE_LEN = 2

/** The tag byte of a field number and wire type (one byte: numbers are below 16). */
export const tagOf = (no: number, wire: number): number => (no << 3) | wire

export const POINTS_ARR = 1

export const POINT_NAME = 1
export const POINT_FIELD = 2
export const POINT_TIME = 3
export const POINT_WARN = 4

export const FIELD_KEY = 1
export const FIELD_INT = 2
export const FIELD_UINT = 3
export const FIELD_FLOAT = 4
export const FIELD_BOOL = 5
export const FIELD_BYTES = 6
export const FIELD_ANY = 7
export const FIELD_IS_TAG = 8
export const FIELD_TYPE = 9
export const FIELD_UNIT = 10
export const FIELD_STRING = 11

export const ANY_TYPE_URL = 1
export const ANY_VALUE = 2
export const ARRAY_ITEM = 1
export const WARN_TYPE = 1
export const WARN_MESSAGE = 2

export const ARRAY_TYPE_URL = 'type.googleapis.com/point.Array'
export const METRIC_TYPES = ['UNSPECIFIED', 'COUNT', 'RATE', 'GAUGE'] as const

/** Field number of a scalar inside Field, and inside Basic, indexed by Kind. */
export const FIELD_NO_BY_KIND: readonly number[] = [
  0,
  FIELD_INT,
  FIELD_UINT,
  FIELD_FLOAT,
  FIELD_BOOL,
  FIELD_BYTES,
  FIELD_STRING,
  FIELD_ANY,
]
export const BASIC_NO_BY_KIND: readonly number[] = [0, 1, 2, 3, 4, 5, 6]

/** Kind of a scalar by its field number inside Field, and inside Basic. */
export const KIND_BY_FIELD_NO: Readonly<Record<number, Kind>> = {
  [FIELD_INT]: Kind.INT,
  [FIELD_UINT]: Kind.UINT,
  [FIELD_FLOAT]: Kind.FLOAT,
  [FIELD_BOOL]: Kind.BOOL,
  [FIELD_BYTES]: Kind.BYTES,
  [FIELD_STRING]: Kind.STRING,
}
export const KIND_BY_BASIC_NO: Readonly<Record<number, Kind>> = {
  1: Kind.INT,
  2: Kind.UINT,
  3: Kind.FLOAT,
  4: Kind.BOOL,
  5: Kind.BYTES,
  6: Kind.STRING,
}

/** Tag bytes the byte-level writers and scanners emit and expect. */
export const T_POINTS_ARR = tagOf(POINTS_ARR, WIRE_LEN)
export const T_POINT_NAME = tagOf(POINT_NAME, WIRE_LEN)
export const T_POINT_FIELD = tagOf(POINT_FIELD, WIRE_LEN)
export const T_POINT_TIME = tagOf(POINT_TIME, WIRE_VARINT)
export const T_FIELD_KEY = tagOf(FIELD_KEY, WIRE_LEN)
export const T_FIELD_INT = tagOf(FIELD_INT, WIRE_VARINT)
export const T_FIELD_UINT = tagOf(FIELD_UINT, WIRE_VARINT)
export const T_FIELD_FLOAT = tagOf(FIELD_FLOAT, WIRE_I64)
export const T_FIELD_BOOL = tagOf(FIELD_BOOL, WIRE_VARINT)
export const T_FIELD_STRING = tagOf(FIELD_STRING, WIRE_LEN)
export const T_FIELD_IS_TAG = tagOf(FIELD_IS_TAG, WIRE_VARINT)
