/**
 * The standard grok pattern set (the names a migrating user knows from the reference agent and
 * Logstash), written in the syntax RE2 and JavaScript share. Custom patterns from
 * `pipeline/pattern/` load first and these override them, as in the reference.
 */
const MONTHS =
  '[Jj]an(?:uary|uar)?|[Ff]eb(?:ruary|ruar)?|[Mm](?:a|ä)?r(?:ch|z)?|[Aa]pr(?:il)?|[Mm]a(?:y|i)?|' +
  '[Jj]un(?:e|i)?|[Jj]ul(?:y|i)?|[Aa]ug(?:ust)?|[Ss]ep(?:tember)?|[Oo](?:c|k)?t(?:ober)?|' +
  '[Nn]ov(?:ember)?|[Dd]e(?:c|z)(?:ember)?'

const IPV6 =
  '(?:(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}|(?:[0-9A-Fa-f]{1,4}:){1,7}:|' +
  '(?:[0-9A-Fa-f]{1,4}:){1,6}:[0-9A-Fa-f]{1,4}|(?:[0-9A-Fa-f]{1,4}:){1,5}(?::[0-9A-Fa-f]{1,4}){1,2}|' +
  '(?:[0-9A-Fa-f]{1,4}:){1,4}(?::[0-9A-Fa-f]{1,4}){1,3}|(?:[0-9A-Fa-f]{1,4}:){1,3}(?::[0-9A-Fa-f]{1,4}){1,4}|' +
  '(?:[0-9A-Fa-f]{1,4}:){1,2}(?::[0-9A-Fa-f]{1,4}){1,5}|[0-9A-Fa-f]{1,4}:(?::[0-9A-Fa-f]{1,4}){1,6}|' +
  ':(?:(?::[0-9A-Fa-f]{1,4}){1,7}|:)|fe80:(?::[0-9A-Fa-f]{0,4}){0,4}%[0-9a-zA-Z]+|' +
  '::(?:ffff(?::0{1,4})?:)?%{IPV4}|(?:[0-9A-Fa-f]{1,4}:){1,4}:%{IPV4})'

export const BUILTIN_PATTERNS: Record<string, string> = {
  USERNAME: '[a-zA-Z0-9._-]+',
  USER: '%{USERNAME}',
  EMAILLOCALPART: '[a-zA-Z][a-zA-Z0-9_.+-=:]+',
  EMAILADDRESS: '%{EMAILLOCALPART}@%{HOSTNAME}',
  HTTPDUSER: '%{EMAILADDRESS}|%{USER}',
  INT: '(?:[+-]?(?:[0-9]+))',
  BASE10NUM: '(?:[+-]?(?:[0-9]+(?:\\.[0-9]+)?|\\.[0-9]+))',
  NUMBER: '(?:%{BASE10NUM})',
  BASE16NUM: '(?:0[xX]?[0-9a-fA-F]+)',
  BASE16FLOAT: '\\b(?:[+-]?(?:0x)?(?:(?:[0-9A-Fa-f]+(?:\\.[0-9A-Fa-f]*)?)|(?:\\.[0-9A-Fa-f]+)))\\b',
  POSINT: '\\b(?:[1-9][0-9]*)\\b',
  NONNEGINT: '\\b(?:[0-9]+)\\b',
  WORD: '\\b\\w+\\b',
  NOTSPACE: '\\S+',
  SPACE: '\\s*',
  DATA: '.*?',
  GREEDYDATA: '.*',
  QUOTEDSTRING: '"(?:[^"\\\\]|\\\\.)*"|\'(?:[^\'\\\\]|\\\\.)*\'|`(?:[^`\\\\]|\\\\.)*`',
  QS: '%{QUOTEDSTRING}',
  UUID: '[A-Fa-f0-9]{8}-(?:[A-Fa-f0-9]{4}-){3}[A-Fa-f0-9]{12}',
  CISCOMAC: '(?:(?:[A-Fa-f0-9]{4}\\.){2}[A-Fa-f0-9]{4})',
  WINDOWSMAC: '(?:(?:[A-Fa-f0-9]{2}-){5}[A-Fa-f0-9]{2})',
  COMMONMAC: '(?:(?:[A-Fa-f0-9]{2}:){5}[A-Fa-f0-9]{2})',
  MAC: '(?:%{CISCOMAC}|%{WINDOWSMAC}|%{COMMONMAC})',
  IPV4: '(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9]?[0-9])',
  IPV6,
  IP: '(?:%{IPV6}|%{IPV4})',
  HOSTNAME:
    '\\b(?:[0-9A-Za-z][0-9A-Za-z-]{0,62})(?:\\.(?:[0-9A-Za-z][0-9A-Za-z-]{0,62}))*(?:\\.?|\\b)',
  HOST: '%{HOSTNAME}',
  IPORHOST: '(?:%{IP}|%{HOSTNAME})',
  HOSTPORT: '%{IPORHOST}:%{POSINT}',
  UNIXPATH: '(?:/[\\w_%!$@:.,-]?/?)(?:\\S+)?',
  TTY: '(?:/dev/(?:pts|tty(?:[pq])?)(?:\\w+)?/?(?:[0-9]+))',
  WINPATH: '(?:[A-Za-z]:|\\\\)(?:\\\\[^\\\\?*]*)+',
  PATH: '(?:%{UNIXPATH}|%{WINPATH})',
  URIPROTO: '[A-Za-z]+(?:\\+[A-Za-z+]+)?',
  URIHOST: '%{IPORHOST}(?::%{POSINT})?',
  URIPATH: "(?:/[A-Za-z0-9$.+!*'(){},~:;=@#%_\\-]*)+",
  URIPARAM: "\\?[A-Za-z0-9$.+!*'|(){},~@#%&/=:;_?\\-\\[\\]<>]*",
  URIPATHPARAM: '%{URIPATH}(?:%{URIPARAM})?',
  URI: '%{URIPROTO}://(?:%{USER}(?::[^@]*)?@)?(?:%{URIHOST})?(?:%{URIPATHPARAM})?',
  MONTH: `\\b(?:${MONTHS})\\b`,
  MONTHNUM: '(?:0?[1-9]|1[0-2])',
  MONTHNUM2: '(?:0[1-9]|1[0-2])',
  MONTHDAY: '(?:(?:0[1-9])|(?:[12][0-9])|(?:3[01])|[1-9])',
  DAY: '(?:Mon(?:day)?|Tue(?:sday)?|Wed(?:nesday)?|Thu(?:rsday)?|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?)',
  // The optional trailing space reproduces the reference's `%{YEAR}?%{TIME}` (its redis
  // script's date): captures are trimmed, so a named YEAR never keeps the space.
  YEAR: '(?:\\d\\d){1,2}\\s?',
  HOUR: '(?:2[0123]|[01]?[0-9])',
  MINUTE: '(?:[0-5][0-9])',
  SECOND: '(?:(?:[0-5]?[0-9]|60)(?:[:.,][0-9]+)?)',
  TIME: '(?:%{HOUR}:%{MINUTE}(?::%{SECOND})?)',
  DATE_US: '%{MONTHNUM}[/-]%{MONTHDAY}[/-]%{YEAR}',
  DATE_EU: '%{MONTHDAY}[./-]%{MONTHNUM}[./-]%{YEAR}',
  ISO8601_TIMEZONE: '(?:Z|[+-]%{HOUR}(?::?%{MINUTE}))',
  ISO8601_SECOND: '(?:%{SECOND}|60)',
  TIMESTAMP_ISO8601:
    '%{YEAR}-%{MONTHNUM}-%{MONTHDAY}[T ]%{HOUR}:?%{MINUTE}(?::?%{SECOND})?%{ISO8601_TIMEZONE}?',
  DATE: '%{DATE_US}|%{DATE_EU}',
  DATESTAMP: '%{DATE}[- ]%{TIME}',
  TZ: '(?:[APMCE][SD]T|UTC)',
  DATESTAMP_RFC822: '%{DAY} %{MONTH} %{MONTHDAY} %{YEAR} %{TIME} %{TZ}',
  DATESTAMP_RFC2822: '%{DAY}, %{MONTHDAY} %{MONTH} %{YEAR} %{TIME} %{ISO8601_TIMEZONE}',
  DATESTAMP_OTHER: '%{DAY} %{MONTH} %{MONTHDAY} %{TIME} %{TZ} %{YEAR}',
  DATESTAMP_EVENTLOG: '%{YEAR}%{MONTHNUM2}%{MONTHDAY}%{HOUR}%{MINUTE}%{SECOND}',
  HTTPDERROR_DATE: '%{DAY} %{MONTH} %{MONTHDAY} %{TIME} %{YEAR}',
  SYSLOGTIMESTAMP: '%{MONTH} +%{MONTHDAY} %{TIME}',
  PROG: '[\\x21-\\x5a\\x5c\\x5e-\\x7e]+',
  SYSLOGPROG: '%{PROG:program}(?:\\[%{POSINT:pid}\\])?',
  SYSLOGHOST: '%{IPORHOST}',
  SYSLOGFACILITY: '<%{NONNEGINT:facility}.%{NONNEGINT:priority}>',
  HTTPDATE: '%{MONTHDAY}/%{MONTH}/%{YEAR}:%{TIME} %{INT}',
  SYSLOGBASE:
    '%{SYSLOGTIMESTAMP:timestamp} (?:%{SYSLOGFACILITY} )?%{SYSLOGHOST:logsource} %{SYSLOGPROG}:',
  COMMONAPACHELOG:
    '%{IPORHOST:clientip} %{HTTPDUSER:ident} %{USER:auth} \\[%{HTTPDATE:timestamp}\\] ' +
    '"(?:%{WORD:verb} %{NOTSPACE:request}(?: HTTP/%{NUMBER:httpversion})?|%{DATA:rawrequest})" ' +
    '%{NUMBER:response} (?:%{NUMBER:bytes}|-)',
  COMBINEDAPACHELOG: '%{COMMONAPACHELOG} %{QS:referrer} %{QS:agent}',
  HTTPD20_ERRORLOG:
    '\\[%{HTTPDERROR_DATE:timestamp}\\] \\[%{LOGLEVEL:loglevel}\\] ' +
    '(?:\\[client %{IPORHOST:clientip}\\] ){0,1}%{GREEDYDATA:errormsg}',
  HTTPD24_ERRORLOG:
    '\\[%{HTTPDERROR_DATE:timestamp}\\] \\[%{WORD:module}:%{LOGLEVEL:loglevel}\\] ' +
    '\\[pid %{POSINT:pid}:tid %{NUMBER:tid}\\]( \\(%{POSINT:proxy_errorcode}\\)%{DATA:proxy_errormessage}:)?' +
    '( \\[client %{IPORHOST:client}:%{POSINT:clientport}\\])? %{DATA:errorcode}: %{GREEDYDATA:message}',
  HTTPD_ERRORLOG: '%{HTTPD20_ERRORLOG}|%{HTTPD24_ERRORLOG}',
  LOGLEVEL:
    '(?:[Aa]lert|ALERT|[Tt]race|TRACE|[Dd]ebug|DEBUG|[Nn]otice|NOTICE|[Ii]nfo|INFO|' +
    '[Ww]arn?(?:ing)?|WARN?(?:ING)?|[Ee]rr?(?:or)?|ERR?(?:OR)?|[Cc]rit?(?:ical)?|CRIT?(?:ICAL)?|' +
    '[Ff]atal|FATAL|[Ss]evere|SEVERE|EMERG(?:ENCY)?|[Ee]merg(?:ency)?)',
}
