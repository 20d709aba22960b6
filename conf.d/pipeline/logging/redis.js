// Redis server log: "pid:role date time level message".
add_pattern('date2', '%{MONTHDAY} %{MONTH} %{YEAR}?%{TIME}')
grok(_, '%{INT:pid}:%{WORD:role} %{date2:time} %{NOTSPACE:serverity} %{GREEDYDATA:msg}')

group_in('serverity', ['.'], 'debug', 'status')
group_in('serverity', ['-'], 'verbose', 'status')
group_in('serverity', ['*'], 'notice', 'status')
group_in('serverity', ['#'], 'warning', 'status')

cast('pid', 'int')
default_time('time')
