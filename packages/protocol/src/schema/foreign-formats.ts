const DATE = '[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])';
const TIME =
  '(?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)(?:\\.[0-9]+)?(?:z|[+-](?:[01][0-9]|2[0-3]):?[0-5][0-9])';
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';

/**
 * The string `format`s a foreign schema may name, each a linear-time expression (the shapes of
 * ajv-formats' fast mode) matched case-insensitively; `''` matches anything.
 */
export const STRING_FORMAT_PATTERNS: Readonly<Record<string, string>> = {
  date: `^${DATE}$`,
  time: `^${TIME}$`,
  'date-time': `^${DATE}[t ]${TIME}$`,
  email: `^[a-z0-9.!#$%&'*+/=?^_\`{|}~-]+@${LABEL}(?:\\.${LABEL})*$`,
  hostname: `^${LABEL}(?:\\.${LABEL})*\\.?$`,
  ipv4: `^${OCTET}(?:\\.${OCTET}){3}$`,
  uri: '^[a-z][a-z0-9+.-]*:[^\\s]*$',
  uuid: '^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$',
  byte: '^(?:[a-z0-9+/]{4})*(?:[a-z0-9+/]{2}==|[a-z0-9+/]{3}=)?$',
  binary: '',
  password: '',
};

/** OpenAPI's number `format`s: constant-time tests (a format of the other kind ignores a value). */
export const NUMBER_FORMAT_TESTS: Readonly<Record<string, (value: number) => boolean>> = {
  int32: (value) => Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31,
  int64: (value) => Number.isInteger(value),
  float: () => true,
  double: () => true,
};
